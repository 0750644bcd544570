package io.bamel.power.ipmi.rmcp;

import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * Reads the data of the responses this client asks for (after the completion code) and names
 * completion codes (IPMI v2.0 table 5-2). Pure.
 */
public final class IpmiReplies {

  private IpmiReplies() {}

  /** Get Channel Authentication Capabilities: whether the channel speaks IPMI v2.0 (RMCP+). */
  static boolean supportsV20(byte[] data) {
    return data.length >= 4 && (data[1] & 0x80) != 0 && (data[3] & 0x02) != 0;
  }

  /** Get Chassis Status: whether the system power is on (current power state, bit 0). */
  public static boolean powerOn(byte[] data) {
    if (data.length < 1) {
      throw new IllegalArgumentException("Get Chassis Status answered no data");
    }
    return (data[0] & 0x01) != 0;
  }

  /**
   * Get System GUID: the 16 bytes as a UUID. The spec stores the GUID least significant byte first
   * (SMBIOS order), so each of its fields is reversed, as ipmitool and dmidecode print it.
   */
  public static UUID systemGuid(byte[] data) {
    if (data.length < 16) {
      throw new IllegalArgumentException("Get System GUID answered " + data.length + " bytes");
    }
    byte[] r = new byte[16];
    for (int i = 0; i < 16; i++) {
      r[i] = data[15 - i];
    }
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = high << 8 | (r[i] & 0xff);
      low = low << 8 | (r[8 + i] & 0xff);
    }
    return new UUID(high, low);
  }

  /** The raw GUID bytes as the BMC sent them, hex. */
  static String rawHex(byte[] data) {
    return Bytes.hex(Arrays.copyOf(data, Math.min(16, data.length)));
  }

  /**
   * DCMI Get Power Reading: the current watts, empty when the reading is not active (byte 17 bit 6)
   * or the answer is not a DCMI one.
   */
  public static OptionalInt watts(byte[] data) {
    if (data.length < 18 || (data[0] & 0xff) != IpmiCommand.DCMI || (data[17] & 0x40) == 0) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(Bytes.le16(data, 1));
  }

  /** {@code "insufficient privilege level (0xd4)"}. */
  public static String completion(int code) {
    String name =
        switch (code) {
          case 0x00 -> "ok";
          case 0xc0 -> "node busy";
          case 0xc1 -> "invalid command";
          case 0xc2 -> "command invalid for given LUN";
          case 0xc3 -> "timeout while processing command";
          case 0xc4 -> "out of space";
          case 0xc5 -> "reservation cancelled or invalid";
          case 0xc6 -> "request data truncated";
          case 0xc7 -> "request data length invalid";
          case 0xc8 -> "request data field length limit exceeded";
          case 0xc9 -> "parameter out of range";
          case 0xca -> "cannot return number of requested data bytes";
          case 0xcb -> "requested sensor, data, or record not present";
          case 0xcc -> "invalid data field in request";
          case 0xcd -> "command illegal for specified sensor or record type";
          case 0xce -> "command response could not be provided";
          case 0xcf -> "cannot execute duplicated request";
          case 0xd0 -> "SDR repository in update mode";
          case 0xd1 -> "device in firmware update mode";
          case 0xd2 -> "BMC initialization in progress";
          case 0xd3 -> "destination unavailable";
          case 0xd4 -> "insufficient privilege level";
          case 0xd5 -> "command not supported in present state";
          case 0xd6 -> "command sub-function disabled or unavailable";
          case 0x80 -> "requested level not available for this user";
          case 0x81 -> "requested level exceeds channel or user privilege limit";
          default -> "completion code";
        };
    return name + String.format(Locale.ROOT, " (0x%02x)", code);
  }
}
