package io.bamel.power.ipmi.fru;

import static io.bamel.power.ipmi.fru.FruImage.ascii;
import static io.bamel.power.ipmi.fru.FruImage.sixBit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FruInventoryTest {

  static byte[] fullImage() {
    return FruImage.sample();
  }

  @Test
  void decodesEveryAreaAndEveryFieldType() throws Exception {
    FruInventory fru = FruInventory.parse(fullImage());

    FruInventory.Chassis chassis = fru.chassis().orElseThrow();
    assertThat(chassis.type()).isEqualTo(0x17);
    assertThat(chassis.partNumber()).isEqualTo("CH-PART-7");
    assertThat(chassis.serial()).isEqualTo("1234-56.7 89");
    assertThat(chassis.custom()).containsExactly("chassis custom");

    FruInventory.Board board = fru.board().orElseThrow();
    assertThat(board.manufacturedMinutes()).isEqualTo(0x0a1b2c);
    assertThat(board.manufacturer()).isEqualTo("Contoso Ltd");
    assertThat(board.product()).isEqualTo("RX200 NODE A");
    assertThat(board.serial()).isEqualTo("BSN-0042");
    assertThat(board.partNumber()).isEqualTo("dead");
    assertThat(board.fileId()).isEmpty();
    assertThat(board.custom()).isEmpty();

    FruInventory.Product product = fru.product().orElseThrow();
    assertThat(product.manufacturer()).isEqualTo("Contoso");
    assertThat(product.name()).isEqualTo("Rackmaster 9000");
    assertThat(product.partNumber()).isEqualTo("PN-9000-X   ");
    assertThat(product.version()).isEqualTo("001.20");
    assertThat(product.serial()).isEqualTo("PSN-77 ");
    assertThat(product.assetTag()).isEqualTo("asset 1");
    assertThat(product.custom()).containsExactly("extra");
  }

  @Test
  void sixBitPackingFollowsTheSpecificationsExample() throws Exception {
    // FRU spec section 13.1: "IPMI" packs as 29 DC A6 (low bits first)
    byte[] field = sixBit("IPMI");
    assertThat(Arrays.copyOfRange(field, 1, 4))
        .containsExactly((byte) 0x29, (byte) 0xdc, (byte) 0xa6);
    assertThat(FruField.decode(field[0] & 0xff, Arrays.copyOfRange(field, 1, 4))).isEqualTo("IPMI");
  }

  @Test
  void absentAreasAreEmpty() throws Exception {
    FruInventory fru = FruInventory.parse(new FruImage().board(0, ascii("Only Board")).bytes());
    assertThat(fru.chassis()).isEmpty();
    assertThat(fru.product()).isEmpty();
    assertThat(fru.board().orElseThrow().manufacturer()).isEqualTo("Only Board");
    assertThat(fru.board().orElseThrow().serial()).isEmpty();
  }

  @Test
  void aBadHeaderChecksumIsNamed() {
    byte[] image = fullImage();
    image[7]++;
    assertThatThrownBy(() -> FruInventory.parse(image))
        .isInstanceOf(FruFormatException.class)
        .hasMessage("the checksum of the common header is wrong");
  }

  @Test
  void aBadAreaChecksumIsNamed() {
    byte[] image = fullImage();
    int board = (image[3] & 0xff) * 8;
    image[board + 7]++; // a byte of the manufacturer's name
    assertThatThrownBy(() -> FruInventory.parse(image))
        .isInstanceOf(FruFormatException.class)
        .hasMessage("the checksum of the board info area is wrong");
  }

  @Test
  void anAreaPastTheEndIsNamed() {
    byte[] image = fullImage();
    byte[] cut = Arrays.copyOf(image, image.length - 8);
    assertThatThrownBy(() -> FruInventory.parse(cut))
        .isInstanceOf(FruFormatException.class)
        .hasMessageStartingWith("the product info area (")
        .hasMessageContaining("runs past the FRU data's " + cut.length + " bytes");
  }

  @Test
  void aFieldPastItsAreaIsNamed() {
    // a board whose manufacturer claims 40 bytes in a 16-byte area, checksums kept right
    byte[] image = new FruImage().board(0, ascii("short")).bytes();
    int board = (image[3] & 0xff) * 8;
    int area = (image[board + 1] & 0xff) * 8;
    image[board + 6] = (byte) (0xc0 | 40);
    image[board + area - 1] =
        FruImage.checksum(Arrays.copyOfRange(image, board, board + area), area - 1);
    assertThatThrownBy(() -> FruInventory.parse(image))
        .isInstanceOf(FruFormatException.class)
        .hasMessageStartingWith("field 1 of the board info area (40 bytes at offset 7) runs past");
  }

  @Test
  void aMissingEndMarkerIsNamed() {
    byte[] image = new FruImage().product(ascii("abc")).bytes();
    int product = (image[4] & 0xff) * 8;
    int area = (image[product + 1] & 0xff) * 8;
    for (int i = product + 7; i < product + area - 1; i++) {
      image[i] = 0; // the end marker and padding become empty binary fields
    }
    image[product + area - 1] =
        FruImage.checksum(Arrays.copyOfRange(image, product, product + area), area - 1);
    assertThatThrownBy(() -> FruInventory.parse(image))
        .isInstanceOf(FruFormatException.class)
        .hasMessage("the product info area has no end-of-fields marker (0xC1) before its checksum");
  }

  @Test
  void aHeaderOfAnotherVersionOrTooShortIsRefused() {
    byte[] image = fullImage();
    image[0] = 2;
    image[7]--;
    assertThatThrownBy(() -> FruInventory.parse(image))
        .isInstanceOf(FruFormatException.class)
        .hasMessage("FRU common header format version 2 is not 1");
    assertThatThrownBy(() -> FruInventory.parse(new byte[5]))
        .isInstanceOf(FruFormatException.class)
        .hasMessage("FRU data of 5 bytes is shorter than the 8-byte common header");
  }

  @Test
  void everyTruncationAndEveryCorruptionIsAFormatErrorOrAParseNeverAnotherException() {
    byte[] image = fullImage();
    for (int length = 0; length < image.length; length++) {
      byte[] cut = Arrays.copyOf(image, length);
      assertThatThrownBy(() -> FruInventory.parse(cut)).isInstanceOf(FruFormatException.class);
    }
    Random random = new Random(33);
    for (int trial = 0; trial < 20_000; trial++) {
      byte[] bad = image.clone();
      int flips = 1 + random.nextInt(4);
      for (int f = 0; f < flips; f++) {
        bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
      }
      parseOrFormatError(bad);
    }
    for (int trial = 0; trial < 20_000; trial++) {
      byte[] noise = new byte[random.nextInt(300)];
      random.nextBytes(noise);
      if (noise.length >= 8) {
        noise[0] = 1;
        noise[7] = FruImage.checksum(noise, 7); // past the header, into the areas
      }
      parseOrFormatError(noise);
    }
  }

  private static void parseOrFormatError(byte[] data) {
    try {
      FruInventory fru = FruInventory.parse(data);
      assertThat(List.of(fru.chassis(), fru.board(), fru.product())).isNotNull();
    } catch (FruFormatException e) {
      assertThat(e.getMessage()).isNotBlank();
    } catch (RuntimeException e) {
      fail("an exception other than FruFormatException escaped for " + Arrays.toString(data), e);
    }
  }
}
