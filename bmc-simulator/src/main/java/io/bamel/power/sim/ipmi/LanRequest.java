package io.bamel.power.sim.ipmi;

import java.util.Arrays;
import java.util.Optional;

/**
 * An IPMI request message as it travels on a LAN channel (IPMI v2.0 section 13.8): responder
 * address, NetFn/LUN, checksum, requester address, sequence/LUN, command, data, checksum. Parsed
 * from a request; {@link #answer} builds the matching response message.
 *
 * @param responder the responder's slave address (the BMC, 20h)
 * @param netFn the request's network function (even)
 * @param responderLun the responder's LUN
 * @param requester the requester's software ID (81h for a remote console)
 * @param sequence the requester's 6-bit sequence number
 * @param requesterLun the requester's LUN
 * @param command the command code
 * @param data the request data
 */
record LanRequest(
    int responder,
    int netFn,
    int responderLun,
    int requester,
    int sequence,
    int requesterLun,
    int command,
    byte[] data) {

  /** The request in {@code length} bytes of {@code b} from {@code at}, if both checksums hold. */
  static Optional<LanRequest> parse(byte[] b, int at, int length) {
    if (length < 7 || at + length > b.length) {
      return Optional.empty();
    }
    if (!Wire.checks(b, at, 2) || !Wire.checks(b, at + 3, length - 4)) {
      return Optional.empty();
    }
    return Optional.of(
        new LanRequest(
            Wire.u8(b, at),
            Wire.u8(b, at + 1) >> 2,
            Wire.u8(b, at + 1) & 3,
            Wire.u8(b, at + 3),
            Wire.u8(b, at + 4) >> 2,
            Wire.u8(b, at + 4) & 3,
            Wire.u8(b, at + 5),
            Arrays.copyOfRange(b, at + 6, at + length - 1)));
  }

  /** The response message: completion code then {@code data}. */
  byte[] answer(int completionCode, byte[] data) {
    byte[] m = new byte[8 + data.length];
    m[0] = (byte) requester;
    m[1] = (byte) ((netFn | 1) << 2 | requesterLun);
    m[2] = Wire.checksum(m, 0, 2);
    m[3] = (byte) responder;
    m[4] = (byte) (sequence << 2 | responderLun);
    m[5] = (byte) command;
    m[6] = (byte) completionCode;
    System.arraycopy(data, 0, m, 7, data.length);
    m[m.length - 1] = Wire.checksum(m, 3, m.length - 4);
    return m;
  }
}
