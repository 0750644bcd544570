package io.bamel.power.wol;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/** The Wake-on-LAN magic packet: 6 bytes 0xFF, then the MAC address 16 times. Pure. */
public final class MagicPacket {

  /** The packet's length: 6 + 16 x 6. */
  public static final int LENGTH = 102;

  private MagicPacket() {}

  /** The packet for {@code mac} ({@code aa:bb:cc:dd:ee:ff}, {@code -} or no separators). */
  public static byte[] forMac(String mac) throws TerminalPowerException {
    byte[] address = parseMac(mac);
    byte[] packet = new byte[LENGTH];
    Arrays.fill(packet, 0, 6, (byte) 0xFF);
    for (int i = 0; i < 16; i++) {
      System.arraycopy(address, 0, packet, 6 + i * 6, 6);
    }
    return packet;
  }

  /** The 6 bytes of a MAC address. */
  public static byte[] parseMac(String mac) throws TerminalPowerException {
    String hex = mac == null ? "" : mac.trim().replace(":", "").replace("-", "").replace(".", "");
    if (!hex.matches("[0-9a-fA-F]{12}")) {
      throw new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG, "not a MAC address: " + mac);
    }
    return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
  }
}
