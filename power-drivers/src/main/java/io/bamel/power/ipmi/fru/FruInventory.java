package io.bamel.power.ipmi.fru;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The information areas of a FRU inventory (IPMI Platform Management FRU Information Storage
 * Definition v1.0 rev. 1.3): the chassis, board and product info areas the common header points to,
 * each field decoded to text (binary fields as hex). Internal use and multi-record areas are not
 * read. {@link #parse} checks every checksum and length and throws {@link FruFormatException} on
 * data that breaks them, never another exception. Pure.
 *
 * @param chassis the chassis info area, if present
 * @param board the board info area, if present
 * @param product the product info area, if present
 */
public record FruInventory(
    Optional<Chassis> chassis, Optional<Board> board, Optional<Product> product) {

  /**
   * The chassis info area.
   *
   * @param type the SMBIOS chassis type byte
   * @param partNumber the chassis part number
   * @param serial the chassis serial number
   * @param custom the custom fields
   */
  public record Chassis(int type, String partNumber, String serial, List<String> custom) {}

  /**
   * The board info area.
   *
   * @param manufacturedMinutes minutes from 1996-01-01 00:00 to the board's manufacture (0:
   *     unspecified)
   * @param manufacturer the board manufacturer
   * @param product the board product name
   * @param serial the board serial number
   * @param partNumber the board part number
   * @param fileId the FRU file ID
   * @param custom the custom fields
   */
  public record Board(
      int manufacturedMinutes,
      String manufacturer,
      String product,
      String serial,
      String partNumber,
      String fileId,
      List<String> custom) {}

  /**
   * The product info area.
   *
   * @param manufacturer the manufacturer name
   * @param name the product name
   * @param partNumber the product part / model number
   * @param version the product version
   * @param serial the product serial number
   * @param assetTag the asset tag
   * @param fileId the FRU file ID
   * @param custom the custom fields
   */
  public record Product(
      String manufacturer,
      String name,
      String partNumber,
      String version,
      String serial,
      String assetTag,
      String fileId,
      List<String> custom) {}

  /**
   * Parses a FRU inventory from its first byte.
   *
   * @throws FruFormatException the common header's or an area's format version, checksum or length
   *     is wrong, or a field runs past its area
   */
  public static FruInventory parse(byte[] data) throws FruFormatException {
    if (data.length < 8) {
      throw new FruFormatException(
          "FRU data of " + data.length + " bytes is shorter than the 8-byte common header");
    }
    if ((data[0] & 0x0f) != 0x01) {
      throw new FruFormatException(
          "FRU common header format version " + (data[0] & 0x0f) + " is not 1");
    }
    requireZeroSum(data, 0, 8, "the common header");
    Optional<Chassis> chassis = Optional.empty();
    Optional<Board> board = Optional.empty();
    Optional<Product> product = Optional.empty();
    int chassisAt = (data[2] & 0xff) * 8;
    if (chassisAt != 0) {
      Area area = area(data, chassisAt, "chassis info area");
      List<String> fields = area.fields(3);
      chassis =
          Optional.of(
              new Chassis(
                  area.bytes[2] & 0xff, field(fields, 0), field(fields, 1), custom(fields, 2)));
    }
    int boardAt = (data[3] & 0xff) * 8;
    if (boardAt != 0) {
      Area area = area(data, boardAt, "board info area");
      List<String> fields = area.fields(6);
      int minutes =
          (area.bytes[3] & 0xff) | (area.bytes[4] & 0xff) << 8 | (area.bytes[5] & 0xff) << 16;
      board =
          Optional.of(
              new Board(
                  minutes,
                  field(fields, 0),
                  field(fields, 1),
                  field(fields, 2),
                  field(fields, 3),
                  field(fields, 4),
                  custom(fields, 5)));
    }
    int productAt = (data[4] & 0xff) * 8;
    if (productAt != 0) {
      Area area = area(data, productAt, "product info area");
      List<String> fields = area.fields(3);
      product =
          Optional.of(
              new Product(
                  field(fields, 0),
                  field(fields, 1),
                  field(fields, 2),
                  field(fields, 3),
                  field(fields, 4),
                  field(fields, 5),
                  field(fields, 6),
                  custom(fields, 7)));
    }
    return new FruInventory(chassis, board, product);
  }

  /**
   * The offsets of the chassis, board and product info areas a common header points to (0: absent).
   */
  public static int[] areaOffsets(byte[] header) {
    return new int[] {(header[2] & 0xff) * 8, (header[3] & 0xff) * 8, (header[4] & 0xff) * 8};
  }

  private static List<String> custom(List<String> fields, int from) {
    return List.copyOf(fields.subList(Math.min(from, fields.size()), fields.size()));
  }

  /** Field {@code i}, or empty when the area ended before it. */
  private static String field(List<String> fields, int i) {
    return i < fields.size() ? fields.get(i) : "";
  }

  /** One info area's bytes (its checksum checked) and name. */
  private record Area(byte[] bytes, String name) {

    /** The area's fields from {@code first} to the end-of-fields marker. */
    List<String> fields(int first) throws FruFormatException {
      List<String> fields = new ArrayList<>();
      int at = first;
      while (true) {
        if (at >= bytes.length - 1) {
          throw new FruFormatException(
              "the " + name + " has no end-of-fields marker (0xC1) before its checksum");
        }
        int typeLength = bytes[at] & 0xff;
        if (typeLength == FruField.END_OF_FIELDS) {
          break;
        }
        int length = FruField.length(typeLength);
        if (at + 1 + length > bytes.length - 1) {
          throw new FruFormatException(
              "field "
                  + (fields.size() + 1)
                  + " of the "
                  + name
                  + " ("
                  + length
                  + " bytes at offset "
                  + (at + 1)
                  + ") runs past the area's "
                  + bytes.length
                  + " bytes");
        }
        fields.add(FruField.decode(typeLength, Arrays.copyOfRange(bytes, at + 1, at + 1 + length)));
        at += 1 + length;
      }
      return fields;
    }
  }

  private static Area area(byte[] data, int at, String name) throws FruFormatException {
    if (at + 2 > data.length) {
      throw new FruFormatException(
          "the "
              + name
              + " at offset "
              + at
              + " lies past the FRU data's "
              + data.length
              + " bytes");
    }
    if ((data[at] & 0x0f) != 0x01) {
      throw new FruFormatException(
          "the " + name + "'s format version " + (data[at] & 0x0f) + " is not 1");
    }
    int length = (data[at + 1] & 0xff) * 8;
    if (length < 8) {
      throw new FruFormatException("the " + name + " has a length of 0");
    }
    if (at + length > data.length) {
      throw new FruFormatException(
          "the "
              + name
              + " ("
              + length
              + " bytes at offset "
              + at
              + ") runs past the FRU data's "
              + data.length
              + " bytes");
    }
    requireZeroSum(data, at, length, "the " + name);
    return new Area(Arrays.copyOfRange(data, at, at + length), name);
  }

  private static void requireZeroSum(byte[] data, int from, int length, String what)
      throws FruFormatException {
    int sum = 0;
    for (int i = from; i < from + length; i++) {
      sum += data[i];
    }
    if ((sum & 0xff) != 0) {
      throw new FruFormatException("the checksum of " + what + " is wrong");
    }
  }
}
