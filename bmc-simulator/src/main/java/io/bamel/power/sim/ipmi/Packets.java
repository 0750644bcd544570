package io.bamel.power.sim.ipmi;

/**
 * The simulator's RMCP and IPMI session framing (IPMI v2.0 sections 13.1 to 13.6): the RMCP header,
 * the IPMI v1.5 session header used before a session (Get Channel Authentication Capabilities) and
 * the IPMI v2.0 / RMCP+ session header and trailer.
 */
final class Packets {

  static final int RMCP_VERSION = 0x06;
  static final int CLASS_ASF = 0x06;
  static final int CLASS_IPMI = 0x07;
  static final int AUTH_RMCP_PLUS = 0x06;
  static final int NEXT_HEADER = 0x07;

  static final int PAYLOAD_IPMI = 0x00;
  static final int OPEN_SESSION_REQUEST = 0x10;
  static final int OPEN_SESSION_RESPONSE = 0x11;
  static final int RAKP_1 = 0x12;
  static final int RAKP_2 = 0x13;
  static final int RAKP_3 = 0x14;
  static final int RAKP_4 = 0x15;

  /** Offset of the IPMI v2.0 payload in a datagram. */
  static final int V2_PAYLOAD = 16;

  private Packets() {}

  /** An IPMI v1.5 packet outside a session (authentication type none) carrying {@code message}. */
  static byte[] v15(byte[] message) {
    byte[] d = new byte[14 + message.length];
    rmcp(d, CLASS_IPMI);
    d[4] = 0x00; // authentication type none; session sequence and ID stay 0
    d[13] = (byte) message.length;
    System.arraycopy(message, 0, d, 14, message.length);
    return d;
  }

  /** An unauthenticated, unencrypted IPMI v2.0 packet outside a session (the handshake). */
  static byte[] v2Handshake(int payloadType, byte[] payload) {
    byte[] d = new byte[V2_PAYLOAD + payload.length];
    rmcp(d, CLASS_IPMI);
    d[4] = AUTH_RMCP_PLUS;
    d[5] = (byte) payloadType;
    Wire.put16(d, 14, payload.length);
    System.arraycopy(payload, 0, d, V2_PAYLOAD, payload.length);
    return d;
  }

  /**
   * An encrypted and authenticated IPMI v2.0 packet of session {@code s}: the payload encrypted
   * under K2, the integrity pad to a multiple of four bytes, pad length, next header and the
   * truncated HMAC under K1 of everything from the authentication type on.
   */
  static byte[] v2Session(SimSession s, int payloadType, byte[] encryptedPayload) {
    int body = 12 + encryptedPayload.length; // authentication type .. end of payload
    int pad = (4 - (body + 2) % 4) % 4;
    int codeAt = 4 + body + pad + 2;
    byte[] d = new byte[codeAt + s.suite.integrityLength];
    rmcp(d, CLASS_IPMI);
    d[4] = AUTH_RMCP_PLUS;
    d[5] = (byte) (0xc0 | payloadType);
    Wire.put32(d, 6, s.consoleId);
    Wire.put32(d, 10, s.nextOutbound());
    Wire.put16(d, 14, encryptedPayload.length);
    System.arraycopy(encryptedPayload, 0, d, V2_PAYLOAD, encryptedPayload.length);
    for (int i = 0; i < pad; i++) {
      d[V2_PAYLOAD + encryptedPayload.length + i] = (byte) 0xff;
    }
    d[codeAt - 2] = (byte) pad;
    d[codeAt - 1] = NEXT_HEADER;
    byte[] code = s.suite.authCode(s.k1, d, 4, codeAt - 4);
    System.arraycopy(code, 0, d, codeAt, code.length);
    return d;
  }

  static void rmcp(byte[] d, int messageClass) {
    d[0] = RMCP_VERSION;
    d[1] = 0x00;
    d[2] = (byte) 0xff; // no RMCP ACK
    d[3] = (byte) messageClass;
  }
}
