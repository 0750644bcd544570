package io.bamel.power.ipmi;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.ipmi.fru.FruFormatException;
import io.bamel.power.ipmi.fru.FruInventory;
import io.bamel.power.ipmi.rmcp.IpmiCommand;
import io.bamel.power.ipmi.rmcp.IpmiMessage;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads one FRU device's inventory over a BMC's turn: its size (Get FRU Inventory Area Info), the
 * common header, the first two bytes of each info area it points to (for the area's length), then
 * every byte up to the end of the last area, in Read FRU Data chunks of 32 bytes (16, then 8, when
 * the BMC answers that a chunk is too large). Never reads past the size the BMC gave, nor more than
 * the header's offsets can reach (about 4 KiB).
 */
final class FruRead {

  private static final int FIRST_CHUNK = 32;

  private final NativeIpmi.TurnBmc bmc;
  private final IpmiAccess access;
  private final int device;
  private int chunk = FIRST_CHUNK;

  private FruRead(NativeIpmi.TurnBmc bmc, IpmiAccess access, int device) {
    this.bmc = bmc;
    this.access = access;
    this.device = device;
  }

  static FruRead of(NativeIpmi.TurnBmc bmc, IpmiAccess access, int device) {
    return new FruRead(bmc, access, device);
  }

  /** The parsed inventory, or empty when the BMC has no such FRU device. */
  Optional<FruInventory> inventory() throws PowerException {
    IpmiMessage.Response info = bmc.send(IpmiCommand.fruAreaInfo(device));
    if (absent(info.completionCode())) {
      return Optional.empty();
    }
    NativeIpmi.check(info, "Get FRU Inventory Area Info on " + bmc.name(), access);
    byte[] d = info.data();
    if (d.length < 3) {
      throw protocol("Get FRU Inventory Area Info answered " + d.length + " bytes, not 3");
    }
    int size = (d[0] & 0xff) | (d[1] & 0xff) << 8;
    if ((d[2] & 0x01) != 0) {
      throw new TerminalPowerException(
          PowerException.Reason.UNSUPPORTED,
          "FRU device "
              + device
              + " on "
              + bmc.name()
              + " is accessed by words, which bamel's IPMI client does not read; set the node's"
              + " ipmi.implementation to ipmitool to inspect it");
    }
    try {
      if (size < 8) {
        return Optional.of(FruInventory.parse(read(0, size)));
      }
      byte[] header = read(0, 8);
      FruInventory.parse(padded(header)); // the header's own checks, before following it
      int end = 8;
      for (int at : FruInventory.areaOffsets(header)) {
        if (at == 0) {
          continue;
        }
        if (at + 2 > size) {
          end = Math.max(end, at + 2); // past the device: parse says so
          continue;
        }
        byte[] start = read(at, 2);
        end = Math.max(end, at + Math.max(8, (start[1] & 0xff) * 8));
      }
      return Optional.of(FruInventory.parse(read(0, Math.min(end, size))));
    } catch (FruFormatException e) {
      throw protocol(e.getMessage());
    }
  }

  /** The header with no areas, so that parsing it checks the header alone. */
  private static byte[] padded(byte[] header) {
    byte[] only = Arrays.copyOf(header, 8);
    int sum = 0;
    for (int i = 0; i < 7; i++) {
      sum += header[i];
    }
    if (((sum + header[7]) & 0xff) != 0) {
      return only; // parse reports the bad checksum
    }
    only[2] = 0;
    only[3] = 0;
    only[4] = 0;
    only[7] = (byte) (header[7] + header[2] + header[3] + header[4]);
    return only;
  }

  private byte[] read(int offset, int length) throws PowerException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(length);
    int at = offset;
    while (at < offset + length) {
      int want = Math.min(chunk, offset + length - at);
      IpmiMessage.Response response = bmc.send(IpmiCommand.readFru(device, at, want));
      int code = response.completionCode();
      if ((code == 0xc7 || code == 0xc8 || code == 0xca) && chunk > 8) {
        chunk /= 2; // too large for this BMC: smaller chunks
        continue;
      }
      NativeIpmi.check(response, "Read FRU Data on " + bmc.name(), access);
      byte[] d = response.data();
      int count = d.length == 0 ? 0 : d[0] & 0xff;
      if (count == 0 || count > want || d.length < 1 + count) {
        throw protocol(
            "Read FRU Data at offset "
                + at
                + " answered "
                + count
                + " of "
                + want
                + " bytes with "
                + Math.max(0, d.length - 1)
                + " bytes of data");
      }
      out.write(d, 1, count);
      at += count;
    }
    return out.toByteArray();
  }

  private TerminalPowerException protocol(String message) {
    return new TerminalPowerException(
        PowerException.Reason.PROTOCOL,
        "FRU device " + device + " on " + bmc.name() + ": " + message);
  }

  /** Completion codes saying there is no such FRU device: not present, invalid field, unknown. */
  private static boolean absent(int code) {
    return code == 0xcb || code == 0xcc || code == 0xc1;
  }
}
