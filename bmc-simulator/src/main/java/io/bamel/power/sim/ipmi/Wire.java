package io.bamel.power.sim.ipmi;

/** Little-endian field access and the IPMI checksum, for the simulator's own message code. */
final class Wire {

  private Wire() {}

  static int u8(byte[] b, int at) {
    return b[at] & 0xff;
  }

  static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  static int u32(byte[] b, int at) {
    return (b[at] & 0xff)
        | (b[at + 1] & 0xff) << 8
        | (b[at + 2] & 0xff) << 16
        | (b[at + 3] & 0xff) << 24;
  }

  static void put16(byte[] b, int at, int value) {
    b[at] = (byte) value;
    b[at + 1] = (byte) (value >>> 8);
  }

  static void put32(byte[] b, int at, int value) {
    b[at] = (byte) value;
    b[at + 1] = (byte) (value >>> 8);
    b[at + 2] = (byte) (value >>> 16);
    b[at + 3] = (byte) (value >>> 24);
  }

  /** The two's-complement checksum of {@code length} bytes from {@code from} (IPMI 13.8). */
  static byte checksum(byte[] b, int from, int length) {
    int sum = 0;
    for (int i = from; i < from + length; i++) {
      sum += b[i];
    }
    return (byte) -sum;
  }

  /** Whether {@code length} bytes from {@code from} and their checksum after them add up to 0. */
  static boolean checks(byte[] b, int from, int length) {
    int sum = 0;
    for (int i = from; i <= from + length; i++) {
      sum += b[i];
    }
    return (sum & 0xff) == 0;
  }
}
