package io.bamel.power.ipmi.rmcp;

import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Little-endian fields, HMAC and hex helpers of the codec. Pure. */
final class Bytes {

  private Bytes() {}

  static int u8(byte[] b, int offset) {
    return b[offset] & 0xff;
  }

  static int le16(byte[] b, int offset) {
    return u8(b, offset) | u8(b, offset + 1) << 8;
  }

  static int le32(byte[] b, int offset) {
    return u8(b, offset)
        | u8(b, offset + 1) << 8
        | u8(b, offset + 2) << 16
        | u8(b, offset + 3) << 24;
  }

  static void putLe32(byte[] b, int offset, int value) {
    b[offset] = (byte) value;
    b[offset + 1] = (byte) (value >>> 8);
    b[offset + 2] = (byte) (value >>> 16);
    b[offset + 3] = (byte) (value >>> 24);
  }

  static byte[] le32(int value) {
    byte[] b = new byte[4];
    putLe32(b, 0, value);
    return b;
  }

  /** HMAC {@code algorithm} keyed by {@code key} over the concatenation of {@code parts}. */
  static byte[] hmac(String algorithm, byte[] key, byte[]... parts) {
    try {
      Mac mac = CryptoPool.mac(algorithm);
      // HMAC pads a key shorter than its block with zeros: the spec's 20-byte zero-padded
      // password field and the bare password give the same MAC.
      mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, algorithm));
      for (byte[] part : parts) {
        mac.update(part);
      }
      byte[] result = mac.doFinal();
      CryptoPool.give(mac);
      return result;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm + " unavailable", e);
    }
  }

  /** HMAC {@code algorithm} keyed by {@code key} over {@code length} bytes of {@code b}. */
  static byte[] hmac(String algorithm, byte[] key, byte[] b, int offset, int length) {
    try {
      Mac mac = CryptoPool.mac(algorithm);
      mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, algorithm));
      mac.update(b, offset, length);
      byte[] result = mac.doFinal();
      CryptoPool.give(mac);
      return result;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm + " unavailable", e);
    }
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  static byte[] unhex(String s) {
    return HexFormat.of().parseHex(s.replaceAll("\\s", ""));
  }
}
