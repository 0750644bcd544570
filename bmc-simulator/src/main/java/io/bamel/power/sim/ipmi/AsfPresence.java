package io.bamel.power.sim.ipmi;

/**
 * The ASF Presence Ping and Pong of RMCP (IPMI v2.0 section 13.2.3, DMTF ASF 2.0 section 3.2.4): a
 * console may ping a BMC's port before it logs in; the pong says that IPMI is supported.
 */
final class AsfPresence {

  private static final int IANA_ASF = 4542;
  private static final int PING = 0x80;
  private static final int PONG = 0x40;

  private AsfPresence() {}

  /** The Presence Pong answering a Presence Ping, or null for any other ASF message. */
  static byte[] pong(byte[] d) {
    if (d.length < 12 || be32(d, 4) != IANA_ASF || (d[8] & 0xff) != PING) {
      return null;
    }
    byte[] r = new byte[12 + 16];
    Packets.rmcp(r, Packets.CLASS_ASF);
    r[2] = d[2]; // the ping's RMCP sequence number
    putBe32(r, 4, IANA_ASF);
    r[8] = (byte) PONG;
    r[9] = d[9]; // message tag
    r[11] = 16;
    putBe32(r, 12, IANA_ASF);
    // OEM-defined bytes 16..19 stay 0
    r[20] = (byte) 0x81; // supported entities: IPMI supported, ASF version 1.0
    return r;
  }

  private static int be32(byte[] b, int at) {
    return (b[at] & 0xff) << 24
        | (b[at + 1] & 0xff) << 16
        | (b[at + 2] & 0xff) << 8
        | (b[at + 3] & 0xff);
  }

  private static void putBe32(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }
}
