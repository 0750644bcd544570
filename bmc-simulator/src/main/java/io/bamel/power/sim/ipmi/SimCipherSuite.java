package io.bamel.power.sim.ipmi;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The two cipher suites the simulated BMC offers (IPMI v2.0 table 22-20): 3 (RAKP-HMAC-SHA1,
 * HMAC-SHA1-96, AES-CBC-128) and 17 (RAKP-HMAC-SHA256, HMAC-SHA256-128, AES-CBC-128), with the key
 * derivations of section 13.32 and the AES-CBC-128 payload format of section 13.29.
 */
enum SimCipherSuite {
  SUITE_3(3, 0x01, 0x01, "HmacSHA1", 20, 12),
  SUITE_17(17, 0x03, 0x04, "HmacSHA256", 32, 16);

  /** Confidentiality algorithm AES-CBC-128 (13.28.5). */
  static final int AES_CBC_128 = 0x01;

  final int id;
  final int authentication;
  final int integrity;
  final String hmac;
  final int digestLength;
  final int integrityLength;

  SimCipherSuite(
      int id,
      int authentication,
      int integrity,
      String hmac,
      int digestLength,
      int integrityLength) {
    this.id = id;
    this.authentication = authentication;
    this.integrity = integrity;
    this.hmac = hmac;
    this.digestLength = digestLength;
    this.integrityLength = integrityLength;
  }

  /** The suite of an Open Session Request's three algorithms, if offered. */
  static Optional<SimCipherSuite> of(int authentication, int integrity, int confidentiality) {
    for (SimCipherSuite s : values()) {
      if (s.authentication == authentication
          && s.integrity == integrity
          && confidentiality == AES_CBC_128) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** Whether an authentication algorithm belongs to an offered suite. */
  static boolean offersAuthentication(int algorithm) {
    return Arrays.stream(values()).anyMatch(s -> s.authentication == algorithm);
  }

  /** Whether an integrity algorithm belongs to an offered suite. */
  static boolean offersIntegrity(int algorithm) {
    return Arrays.stream(values()).anyMatch(s -> s.integrity == algorithm);
  }

  /** HMAC of the concatenated {@code parts} under {@code key} with this suite's hash. */
  byte[] hmac(byte[] key, byte[]... parts) {
    try {
      Mac mac = Mac.getInstance(hmac);
      // An empty password is a key of zero bytes; HMAC pads every key to the block size alike.
      mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, hmac));
      for (byte[] part : parts) {
        mac.update(part);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * K1 or K2 (13.32): HMAC under SIK of {@code constant} repeated 20 times (Const 1 and Const 2 are
   * 20 bytes whatever the hash).
   */
  byte[] derived(byte[] sik, int constant) {
    byte[] c = new byte[20];
    Arrays.fill(c, (byte) constant);
    return hmac(sik, c);
  }

  /** The integrity AuthCode over {@code length} bytes from {@code from}, truncated. */
  byte[] authCode(byte[] k1, byte[] packet, int from, int length) {
    return Arrays.copyOf(
        hmac(k1, Arrays.copyOfRange(packet, from, from + length)), integrityLength);
  }

  /** Constant-time comparison of a received code with the expected one (prefix of it). */
  static boolean matches(byte[] expected, byte[] packet, int at, int length) {
    if (at + length > packet.length || length > expected.length) {
      return false;
    }
    return MessageDigest.isEqual(
        Arrays.copyOf(expected, length), Arrays.copyOfRange(packet, at, at + length));
  }

  /**
   * Decrypts an AES-CBC-128 payload (16-byte IV, then ciphertext whose plaintext ends with pad
   * bytes 1, 2, ... and the pad length); empty when it is malformed.
   */
  static Optional<byte[]> decrypt(byte[] k2, byte[] payload) {
    if (payload.length < 32 || payload.length % 16 != 0) {
      return Optional.empty();
    }
    try {
      Cipher aes = Cipher.getInstance("AES/CBC/NoPadding");
      aes.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(k2, 0, 16, "AES"),
          new IvParameterSpec(payload, 0, 16));
      byte[] plain = aes.doFinal(payload, 16, payload.length - 16);
      int pad = plain[plain.length - 1] & 0xff;
      if (pad > 15 || pad + 1 > plain.length) {
        return Optional.empty();
      }
      for (int i = 0; i < pad; i++) {
        if ((plain[plain.length - 1 - pad + i] & 0xff) != i + 1) {
          return Optional.empty();
        }
      }
      return Optional.of(Arrays.copyOf(plain, plain.length - 1 - pad));
    } catch (GeneralSecurityException e) {
      return Optional.empty();
    }
  }

  /** Encrypts {@code data} as an AES-CBC-128 payload under a fresh IV. */
  static byte[] encrypt(byte[] k2, byte[] data, byte[] iv) {
    int pad = (16 - (data.length + 1) % 16) % 16;
    byte[] plain = new byte[data.length + pad + 1];
    System.arraycopy(data, 0, plain, 0, data.length);
    for (int i = 0; i < pad; i++) {
      plain[data.length + i] = (byte) (i + 1);
    }
    plain[plain.length - 1] = (byte) pad;
    try {
      Cipher aes = Cipher.getInstance("AES/CBC/NoPadding");
      aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(k2, 0, 16, "AES"), new IvParameterSpec(iv));
      byte[] out = new byte[16 + plain.length];
      System.arraycopy(iv, 0, out, 0, 16);
      aes.doFinal(plain, 0, plain.length, out, 16);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
