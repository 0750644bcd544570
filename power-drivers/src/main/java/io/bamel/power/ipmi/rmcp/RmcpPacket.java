package io.bamel.power.ipmi.rmcp;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * An RMCP packet of class IPMI (IPMI v2.0 section 13.6): the IPMI v1.5 session wrapper with no
 * authentication that Get Channel Authentication Capabilities travels in before a session, and the
 * RMCP+ (v2.0) wrapper of every other message, with the payload type, the session ID and sequence,
 * and, in an established session, the integrity trailer (pad, pad length, next header 0x07, the
 * HMAC AuthCode over the packet from the auth type on) and AES-CBC-128 payload encryption (section
 * 13.29: a random IV, the payload, pad bytes 1, 2, 3... and the pad length). Pure but for the
 * random IV.
 *
 * @param payloadType the payload type (0x00 IPMI message, 0x10 to 0x15 Open Session and RAKP); 0x00
 *     for a v1.5 packet
 * @param sessionId the session ID field (the receiver's ID; 0 outside a session)
 * @param sequence the session sequence number (0 outside a session)
 * @param payload the payload, decrypted
 * @param authenticated whether the packet carried a valid AuthCode
 * @param v15 whether the packet used the IPMI v1.5 wrapper
 */
public record RmcpPacket(
    int payloadType,
    int sessionId,
    int sequence,
    byte[] payload,
    boolean authenticated,
    boolean v15) {

  /** Payload type of an IPMI message. */
  public static final int IPMI = 0x00;

  /** Payload type of an RMCP+ Open Session Request. */
  public static final int OPEN_SESSION_REQUEST = 0x10;

  /** Payload type of an RMCP+ Open Session Response. */
  public static final int OPEN_SESSION_RESPONSE = 0x11;

  /** Payload type of RAKP Message 1. */
  public static final int RAKP_1 = 0x12;

  /** Payload type of RAKP Message 2. */
  public static final int RAKP_2 = 0x13;

  /** Payload type of RAKP Message 3. */
  public static final int RAKP_3 = 0x14;

  /** Payload type of RAKP Message 4. */
  public static final int RAKP_4 = 0x15;

  private static final byte[] RMCP_HEADER = {0x06, 0x00, (byte) 0xff, 0x07};
  private static final int AUTH_TYPE_RMCP_PLUS = 0x06;
  private static final int ENCRYPTED = 0x80;
  private static final int AUTHENTICATED = 0x40;
  private static final int NEXT_HEADER = 0x07;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** An IPMI v1.5 packet outside a session (auth type none) carrying {@code message}. */
  static byte[] v15(byte[] message) {
    byte[] p = new byte[4 + 10 + message.length];
    System.arraycopy(RMCP_HEADER, 0, p, 0, 4);
    p[13] = (byte) message.length;
    System.arraycopy(message, 0, p, 14, message.length);
    return p;
  }

  /** An RMCP+ packet outside a session: Open Session Request and RAKP 1 and 3. */
  static byte[] v20(int payloadType, byte[] payload) {
    return v20(payloadType, 0, 0, payload, null);
  }

  /**
   * An RMCP+ packet; with {@code keys} (an established session) the payload is encrypted and the
   * packet authenticated as the suite says, with a random IV.
   */
  static byte[] v20(
      int payloadType, int sessionId, int sequence, byte[] payload, SessionKeys keys) {
    byte[] iv = new byte[16];
    if (keys != null && keys.suite().encrypted()) {
      RANDOM.nextBytes(iv);
    }
    return v20(payloadType, sessionId, sequence, payload, keys, iv);
  }

  /** {@link #v20(int, int, int, byte[], SessionKeys)} with a given IV, for byte-vector tests. */
  static byte[] v20(
      int payloadType, int sessionId, int sequence, byte[] payload, SessionKeys keys, byte[] iv) {
    int type = payloadType;
    byte[] body = payload;
    if (keys != null && keys.suite().encrypted()) {
      body = encrypt(keys.aesKey(), iv, payload);
      type |= ENCRYPTED;
    }
    int authLength = keys == null ? 0 : keys.suite().authCodeLength();
    if (authLength > 0) {
      type |= AUTHENTICATED;
    }
    int headerAndBody = 12 + body.length; // auth type to the end of the payload
    int pad = authLength == 0 ? 0 : (4 - (headerAndBody + 2) % 4) % 4;
    int trailer = authLength == 0 ? 0 : pad + 2 + authLength;
    byte[] p = new byte[4 + headerAndBody + trailer];
    System.arraycopy(RMCP_HEADER, 0, p, 0, 4);
    p[4] = AUTH_TYPE_RMCP_PLUS;
    p[5] = (byte) type;
    Bytes.putLe32(p, 6, sessionId);
    Bytes.putLe32(p, 10, sequence);
    p[14] = (byte) body.length;
    p[15] = (byte) (body.length >>> 8);
    System.arraycopy(body, 0, p, 16, body.length);
    if (authLength > 0) {
      int at = 16 + body.length;
      Arrays.fill(p, at, at + pad, (byte) 0xff);
      p[at + pad] = (byte) pad;
      p[at + pad + 1] = NEXT_HEADER;
      byte[] code = authCode(keys, p, 4, at + pad + 2);
      System.arraycopy(code, 0, p, at + pad + 2, authLength);
    }
    return p;
  }

  /**
   * The packet in {@code datagram}, checked and decrypted with {@code keys} (null outside a
   * session); empty when it is not an RMCP IPMI packet, is truncated, or fails its integrity check
   * or decryption. An established session's packet that is not authenticated when its suite
   * authenticates is refused too.
   */
  static Optional<RmcpPacket> decode(byte[] datagram, int length, SessionKeys keys) {
    byte[] d = length == datagram.length ? datagram : Arrays.copyOf(datagram, length);
    if (d.length < 14 || d[0] != 0x06 || (d[3] & 0x1f) != 0x07) {
      return Optional.empty();
    }
    int authType = Bytes.u8(d, 4) & 0x0f;
    if (authType != AUTH_TYPE_RMCP_PLUS) {
      return decodeV15(d, authType);
    }
    if (d.length < 16) {
      return Optional.empty();
    }
    int type = Bytes.u8(d, 5);
    int sessionId = Bytes.le32(d, 6);
    int sequence = Bytes.le32(d, 10);
    int bodyLength = Bytes.le16(d, 14);
    if ((type & 0x3f) == 0x02 || 16 + bodyLength > d.length) {
      return Optional.empty(); // OEM explicit payloads are not spoken here
    }
    byte[] body = Arrays.copyOfRange(d, 16, 16 + bodyLength);
    boolean authenticated = (type & AUTHENTICATED) != 0;
    boolean encrypted = (type & ENCRYPTED) != 0;
    boolean sessionAuthenticates = keys != null && keys.suite().authCodeLength() > 0;
    boolean sessionEncrypts = keys != null && keys.suite().encrypted();
    if (sessionId != 0 && (authenticated != sessionAuthenticates || encrypted != sessionEncrypts)) {
      return Optional.empty();
    }
    if (authenticated) {
      if (!sessionAuthenticates) {
        return Optional.empty();
      }
      int authLength = keys.suite().authCodeLength();
      int end = 16 + bodyLength;
      if (d.length != end + ((4 - (12 + bodyLength + 2) % 4) % 4) + 2 + authLength) {
        return Optional.empty();
      }
      byte[] expected = authCode(keys, d, 4, d.length - authLength);
      byte[] actual = Arrays.copyOfRange(d, d.length - authLength, d.length);
      if (!MessageDigest.isEqual(Arrays.copyOf(expected, authLength), actual)) {
        return Optional.empty();
      }
    }
    if (encrypted) {
      if (!sessionEncrypts) {
        return Optional.empty();
      }
      Optional<byte[]> plain = decrypt(keys.aesKey(), body);
      if (plain.isEmpty()) {
        return Optional.empty();
      }
      body = plain.get();
    }
    return Optional.of(
        new RmcpPacket(type & 0x3f, sessionId, sequence, body, authenticated, false));
  }

  private static Optional<RmcpPacket> decodeV15(byte[] d, int authType) {
    int at = authType == 0 ? 13 : 29; // a 16-byte AuthCode follows the session ID otherwise
    if (d.length <= at) {
      return Optional.empty();
    }
    int length = Bytes.u8(d, at);
    if (at + 1 + length > d.length) {
      return Optional.empty();
    }
    return Optional.of(
        new RmcpPacket(
            IPMI,
            Bytes.le32(d, 9),
            Bytes.le32(d, 5),
            Arrays.copyOfRange(d, at + 1, at + 1 + length),
            false,
            true));
  }

  private static byte[] authCode(SessionKeys keys, byte[] p, int from, int to) {
    return Bytes.hmac(keys.suite().integrityHmac(), keys.k1(), p, from, to - from);
  }

  private static final String AES_CBC = "AES/CBC/NoPadding";

  /** AES-CBC-128 of {@code plain} with pad bytes 1, 2, ..., n and the pad length n: IV first. */
  static byte[] encrypt(byte[] key, byte[] iv, byte[] plain) {
    int pad = (16 - (plain.length + 1) % 16) % 16;
    byte[] block = new byte[plain.length + pad + 1];
    System.arraycopy(plain, 0, block, 0, plain.length);
    for (int i = 0; i < pad; i++) {
      block[plain.length + i] = (byte) (i + 1);
    }
    block[block.length - 1] = (byte) pad;
    try {
      Cipher aes = CryptoPool.cipher(AES_CBC);
      aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
      byte[] out = new byte[16 + block.length];
      System.arraycopy(iv, 0, out, 0, 16);
      aes.doFinal(block, 0, block.length, out, 16);
      CryptoPool.give(aes);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CBC unavailable", e);
    }
  }

  /** The plain text of an {@link #encrypt} output, empty when malformed. */
  static Optional<byte[]> decrypt(byte[] key, byte[] body) {
    if (body.length < 32 || body.length % 16 != 0) {
      return Optional.empty();
    }
    try {
      Cipher aes = CryptoPool.cipher(AES_CBC);
      aes.init(
          Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(body, 0, 16));
      byte[] block = aes.doFinal(body, 16, body.length - 16);
      CryptoPool.give(aes);
      int pad = Bytes.u8(block, block.length - 1);
      if (pad > 15 || pad + 1 > block.length) {
        return Optional.empty();
      }
      int plainLength = block.length - 1 - pad;
      for (int i = 0; i < pad; i++) {
        if (Bytes.u8(block, plainLength + i) != i + 1) {
          return Optional.empty();
        }
      }
      return Optional.of(Arrays.copyOf(block, plainLength));
    } catch (GeneralSecurityException e) {
      return Optional.empty();
    }
  }
}
