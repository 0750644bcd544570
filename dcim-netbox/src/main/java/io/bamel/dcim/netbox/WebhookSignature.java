package io.bamel.dcim.netbox;

import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * NetBox's webhook signature: {@code X-Hook-Signature} is the hexadecimal HMAC-SHA512 of the raw
 * request body keyed with the webhook's secret (NetBox's {@code generate_signature}). Pure; the
 * comparison takes the same time whatever the bytes compared ({@link MessageDigest#isEqual}).
 */
public final class WebhookSignature {

  private static final int BYTES = 64;

  private WebhookSignature() {}

  /** The signature of {@code body} under {@code secret}, as NetBox sends it (lower-case hex). */
  public static String sign(WebhookSecret secret, byte[] body) {
    return java.util.HexFormat.of().formatHex(hmac(secret, body));
  }

  /** Whether {@code header} (null when absent) is the signature of {@code body}. */
  public static boolean verify(WebhookSecret secret, byte[] body, String header) {
    byte[] expected = hmac(secret, body);
    byte[] given = decode(header == null ? "" : header.strip());
    // A header of the wrong shape still costs one constant-time comparison.
    return MessageDigest.isEqual(expected, given == null ? new byte[BYTES] : given)
        && given != null;
  }

  private static byte[] decode(String hex) {
    if (hex.length() != 2 * BYTES) {
      return null;
    }
    try {
      return java.util.HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static byte[] hmac(WebhookSecret secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA512");
      mac.init(new SecretKeySpec(secret.key(), "HmacSHA512"));
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HMAC-SHA512 is not available", e);
    }
  }
}
