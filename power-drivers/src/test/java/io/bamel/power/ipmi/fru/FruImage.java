package io.bamel.power.ipmi.fru;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds FRU inventory images byte by byte from the FRU Information Storage Definition's layout,
 * for the tests: the encoder is written here, apart from the parser it checks, and the same images
 * go to {@code ipmi_sim} for ipmitool to read.
 */
public final class FruImage {

  private byte[] chassis;
  private byte[] board;
  private byte[] product;

  /** A chassis info area of {@code type} with these encoded fields (end marker added). */
  public FruImage chassis(int type, byte[]... fields) {
    chassis = area(new byte[] {(byte) type}, fields);
    return this;
  }

  /** A board info area made at {@code minutes} after 1996 with these encoded fields. */
  public FruImage board(int minutes, byte[]... fields) {
    board =
        area(
            new byte[] {0, (byte) minutes, (byte) (minutes >>> 8), (byte) (minutes >>> 16)},
            fields);
    return this;
  }

  /** A product info area (language English) with these encoded fields. */
  public FruImage product(byte[]... fields) {
    product = area(new byte[] {0}, fields);
    return this;
  }

  /** The image: common header, then the chassis, board and product areas in that order. */
  public byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] header = new byte[8];
    header[0] = 1;
    int at = 8;
    List<byte[]> areas = new ArrayList<>();
    byte[][] all = {chassis, board, product};
    for (int i = 0; i < 3; i++) {
      if (all[i] != null) {
        header[2 + i] = (byte) (at / 8);
        at += all[i].length;
        areas.add(all[i]);
      }
    }
    header[7] = checksum(header, 7);
    out.writeBytes(header);
    areas.forEach(out::writeBytes);
    return out.toByteArray();
  }

  private static byte[] area(byte[] head, byte[][] fields) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(1);
    out.write(0); // length, set below
    out.writeBytes(head);
    for (byte[] field : fields) {
      out.writeBytes(field);
    }
    out.write(0xc1);
    while ((out.size() + 1) % 8 != 0) {
      out.write(0);
    }
    out.write(0);
    byte[] area = out.toByteArray();
    area[1] = (byte) (area.length / 8);
    area[area.length - 1] = checksum(area, area.length - 1);
    return area;
  }

  /** The byte making the first {@code n} bytes plus itself sum to zero. */
  public static byte checksum(byte[] b, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
      sum += b[i];
    }
    return (byte) -sum;
  }

  /** An 8-bit ASCII field (type 11b). */
  public static byte[] ascii(String text) {
    byte[] data = text.getBytes(StandardCharsets.ISO_8859_1);
    return field(3, data);
  }

  /** A binary field (type 00b). */
  public static byte[] binary(byte... data) {
    return field(0, data);
  }

  /** A BCD plus field (type 01b) of digits, space, dash and period; an even count. */
  public static byte[] bcdPlus(String text) {
    String digits = "0123456789 -.";
    byte[] data = new byte[text.length() / 2];
    for (int i = 0; i < data.length; i++) {
      data[i] =
          (byte) (digits.indexOf(text.charAt(2 * i)) << 4 | digits.indexOf(text.charAt(2 * i + 1)));
    }
    return field(1, data);
  }

  /** A 6-bit ASCII packed field (type 10b) of characters 0x20 to 0x5f; a multiple of 4. */
  public static byte[] sixBit(String text) {
    byte[] data = new byte[text.length() / 4 * 3];
    for (int i = 0; i < text.length() / 4; i++) {
      int c0 = text.charAt(4 * i) - 0x20;
      int c1 = text.charAt(4 * i + 1) - 0x20;
      int c2 = text.charAt(4 * i + 2) - 0x20;
      int c3 = text.charAt(4 * i + 3) - 0x20;
      int packed = c0 | c1 << 6 | c2 << 12 | c3 << 18;
      data[3 * i] = (byte) packed;
      data[3 * i + 1] = (byte) (packed >>> 8);
      data[3 * i + 2] = (byte) (packed >>> 16);
    }
    return field(2, data);
  }

  private static byte[] field(int type, byte[] data) {
    byte[] field = new byte[1 + data.length];
    field[0] = (byte) (type << 6 | data.length);
    System.arraycopy(data, 0, field, 1, data.length);
    return field;
  }

  /** Every field type in every area. */
  public static byte[] sample() {
    return new FruImage()
        .chassis(0x17, ascii("CH-PART-7"), bcdPlus("1234-56.7 89"), ascii("chassis custom"))
        .board(
            0x0a1b2c,
            ascii("Contoso Ltd"),
            sixBit("RX200 NODE A"),
            ascii("BSN-0042"),
            binary((byte) 0xde, (byte) 0xad),
            ascii(""))
        .product(
            ascii("Contoso"),
            ascii("Rackmaster 9000"),
            sixBit("PN-9000-X   "),
            bcdPlus("001.20"),
            ascii("PSN-77 "),
            ascii("asset 1"),
            ascii(""),
            ascii("extra"))
        .bytes();
  }
}
