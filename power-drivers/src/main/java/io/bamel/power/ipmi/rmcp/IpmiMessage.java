package io.bamel.power.ipmi.rmcp;

import java.util.Arrays;
import java.util.Optional;

/**
 * The IPMI LAN message inside a session packet (IPMI v2.0 section 13.8): requests from the remote
 * console (software ID 0x81) to the BMC (slave address 0x20, LUN 0), and the BMC's responses, each
 * with its two checksums. Pure.
 */
public final class IpmiMessage {

  /** The BMC's responder address. */
  static final int BMC_ADDRESS = 0x20;

  /** The remote console's requester address (software ID 0x40, shifted, as ipmitool uses). */
  static final int CONSOLE_ADDRESS = 0x81;

  private IpmiMessage() {}

  /** A decoded response. */
  public record Response(int netFn, int command, int sequence, int completionCode, byte[] data) {

    /** Whether the completion code is 0 (normal). */
    public boolean ok() {
      return completionCode == 0;
    }
  }

  /** A request: netFn (even), command, 6-bit sequence, data. */
  static byte[] request(int netFn, int command, int sequence, byte[] data) {
    byte[] m = new byte[7 + data.length];
    m[0] = (byte) BMC_ADDRESS;
    m[1] = (byte) (netFn << 2);
    m[2] = checksum(m, 0, 2);
    m[3] = (byte) CONSOLE_ADDRESS;
    m[4] = (byte) ((sequence & 0x3f) << 2);
    m[5] = (byte) command;
    System.arraycopy(data, 0, m, 6, data.length);
    m[m.length - 1] = checksum(m, 3, m.length - 1);
    return m;
  }

  /**
   * The response in {@code message}, empty when it is too short, a checksum is wrong or it is not
   * addressed to the console from the BMC.
   */
  static Optional<Response> response(byte[] message) {
    if (message.length < 8
        || checksum(message, 0, 2) != message[2]
        || checksum(message, 3, message.length - 1) != message[message.length - 1]
        || Bytes.u8(message, 0) != CONSOLE_ADDRESS
        || Bytes.u8(message, 3) != BMC_ADDRESS) {
      return Optional.empty();
    }
    return Optional.of(
        new Response(
            Bytes.u8(message, 1) >> 2,
            Bytes.u8(message, 5),
            Bytes.u8(message, 4) >> 2,
            Bytes.u8(message, 6),
            Arrays.copyOfRange(message, 7, message.length - 1)));
  }

  /** The two's complement checksum of {@code b[from..to)}: the byte that makes the sum zero. */
  static byte checksum(byte[] b, int from, int to) {
    int sum = 0;
    for (int i = from; i < to; i++) {
      sum += b[i];
    }
    return (byte) -sum;
  }
}
