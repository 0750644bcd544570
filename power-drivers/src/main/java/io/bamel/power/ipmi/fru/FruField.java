package io.bamel.power.ipmi.fru;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Decodes one type/length-encoded FRU field (FRU Information Storage Definition v1.0, section 13):
 * the type in bits 7:6 of the type/length byte (binary, BCD plus, 6-bit ASCII packed, 8-bit ASCII
 * or Latin-1), the byte count in bits 5:0. Pure.
 */
final class FruField {

  /** The type/length byte that ends an area's fields. */
  static final int END_OF_FIELDS = 0xc1;

  /**
   * BCD plus digits: 0-9, space, dash, period (the specification's); D to F are reserved, decoded
   * as ipmitool does ({@code :}, {@code ,}, {@code _}) so that both read a field alike.
   */
  private static final String BCD_PLUS = "0123456789 -.:,_";

  private FruField() {}

  /** The number of data bytes that follow the type/length byte {@code typeLength}. */
  static int length(int typeLength) {
    return typeLength & 0x3f;
  }

  /** The text of a field of type/length byte {@code typeLength} whose data is {@code data}. */
  static String decode(int typeLength, byte[] data) {
    return switch (typeLength >>> 6) {
      case 0 -> HexFormat.of().formatHex(data);
      case 1 -> bcdPlus(data);
      case 2 -> sixBitAscii(data);
      default -> new String(data, StandardCharsets.ISO_8859_1);
    };
  }

  private static String bcdPlus(byte[] data) {
    StringBuilder text = new StringBuilder(data.length * 2);
    for (byte b : data) {
      text.append(BCD_PLUS.charAt((b >>> 4) & 0x0f)).append(BCD_PLUS.charAt(b & 0x0f));
    }
    return text.toString();
  }

  /** Four characters (0x20 plus 6 bits each) in every 3 bytes, least significant bits first. */
  private static String sixBitAscii(byte[] data) {
    StringBuilder text = new StringBuilder(data.length * 4 / 3);
    int bits = 0;
    int held = 0;
    for (byte b : data) {
      bits |= (b & 0xff) << held;
      held += 8;
      while (held >= 6) {
        text.append((char) (0x20 + (bits & 0x3f)));
        bits >>>= 6;
        held -= 6;
      }
    }
    return text.toString();
  }
}
