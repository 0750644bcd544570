package io.bamel.power.ipmi.rmcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.ipmi.IpmiImplementation;
import io.bamel.power.ipmi.IpmiOutput;
import io.bamel.power.ipmi.fru.FruImage;
import io.bamel.power.ipmi.fru.FruInventory;
import io.bamel.power.testing.IpmiTools;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Native FRU inspection (Get FRU Inventory Area Info, Read FRU Data, the parser) against {@code
 * ipmi_sim} holding a FRU image of every field type, cross-checked with {@code ipmitool fru print}
 * on the same simulator.
 */
class FruInspectionIT {

  @TempDir Path dir;

  @BeforeAll
  static void tools() {
    IpmiTools.require();
  }

  private static IpmiDriver driver() {
    return new IpmiDriver(name -> Credentials.of(Lanserv.ADMIN, Lanserv.ADMIN_PASSWORD));
  }

  private static BmcEndpoint endpoint(Lanserv bmc) {
    return BmcEndpoint.of("127.0.0.1:" + bmc.port(), "bmc");
  }

  @Test
  void nativeInspectionAgreesWithIpmitoolFruPrint() throws Exception {
    byte[] image = FruImage.sample();
    try (Lanserv bmc = Lanserv.start(dir.resolve("sim"), image);
        IpmiDriver driver = driver()) {
      String printed = bmc.ipmitool("fru", "print", "0");
      HardwareInfo viaIpmitool = IpmiOutput.hardware(printed);
      HardwareInfo nativeRead = driver.inspect(endpoint(bmc), Deadline.in(Duration.ofSeconds(20)));

      assertThat(nativeRead.manufacturer()).isEqualTo("Contoso");
      assertThat(nativeRead.model()).isEqualTo("Rackmaster 9000");
      assertThat(nativeRead.serial()).isEqualTo("PSN-77");
      assertThat(nativeRead).isEqualTo(viaIpmitool);
      // the driver's ipmitool path reads the same
      assertThat(
              driver.inspect(
                  endpoint(bmc)
                      .withOption(
                          IpmiDriver.OPTION_IMPLEMENTATION, IpmiImplementation.IPMITOOL.value()),
                  Deadline.in(Duration.ofSeconds(20))))
          .isEqualTo(nativeRead);

      // every field ipmitool prints, as the parser decodes it (6-bit, BCD plus, binary, 8-bit)
      FruInventory fru = FruInventory.parse(image);
      FruInventory.Chassis chassis = fru.chassis().orElseThrow();
      FruInventory.Board board = fru.board().orElseThrow();
      FruInventory.Product product = fru.product().orElseThrow();
      Map<String, String> expected =
          Map.ofEntries(
              Map.entry("Chassis Part Number", chassis.partNumber()),
              Map.entry("Chassis Serial", chassis.serial()),
              Map.entry("Board Mfg", board.manufacturer()),
              Map.entry("Board Product", board.product()),
              Map.entry("Board Serial", board.serial()),
              Map.entry("Board Part Number", board.partNumber()),
              Map.entry("Product Manufacturer", product.manufacturer()),
              Map.entry("Product Name", product.name()),
              Map.entry("Product Part Number", product.partNumber()),
              Map.entry("Product Version", product.version()),
              Map.entry("Product Serial", product.serial()),
              Map.entry("Product Asset Tag", product.assetTag()));
      for (Map.Entry<String, String> field : expected.entrySet()) {
        assertThat(printedField(printed, field.getKey()))
            .as(field.getKey() + " in\n" + printed)
            .isEqualTo(field.getValue().strip());
      }
    }
  }

  @Test
  void aBmcWithoutFruGivesNoFactsAsIpmitoolDoes() throws Exception {
    try (Lanserv bmc = Lanserv.start(dir.resolve("sim"));
        IpmiDriver driver = driver()) {
      HardwareInfo nativeRead = driver.inspect(endpoint(bmc), Deadline.in(Duration.ofSeconds(20)));
      assertThat(nativeRead.manufacturer()).isNull();
      assertThat(nativeRead.model()).isNull();
      assertThat(nativeRead.serial()).isNull();
      assertThat(nativeRead).isEqualTo(IpmiOutput.hardware(bmc.ipmitool("fru", "print", "0")));
    }
  }

  @Test
  void aCorruptFruIsAClearTerminalErrorNotAnException() throws Exception {
    byte[] image = FruImage.sample();
    int board = (image[3] & 0xff) * 8;
    image[board + 8]++; // inside the board manufacturer: the area's checksum no longer holds
    try (Lanserv bmc = Lanserv.start(dir.resolve("sim"), image);
        IpmiDriver driver = driver()) {
      assertThatThrownBy(() -> driver.inspect(endpoint(bmc), Deadline.in(Duration.ofSeconds(20))))
          .isInstanceOfSatisfying(
              TerminalPowerException.class,
              e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.PROTOCOL))
          .hasMessageContaining("FRU device 0 on 127.0.0.1:" + bmc.port())
          .hasMessageEndingWith("the checksum of the board info area is wrong");
    }
  }

  @Test
  void aFruCutShortOfItsLastAreaIsAClearError() throws Exception {
    byte[] image = FruImage.sample();
    byte[] cut = Arrays.copyOf(image, image.length - 16);
    try (Lanserv bmc = Lanserv.start(dir.resolve("sim"), cut);
        IpmiDriver driver = driver()) {
      assertThatThrownBy(() -> driver.inspect(endpoint(bmc), Deadline.in(Duration.ofSeconds(20))))
          .isInstanceOf(TerminalPowerException.class)
          .hasMessageContaining("the product info area (")
          .hasMessageContaining("runs past the FRU data's " + cut.length + " bytes");
    }
  }

  private static String printedField(String printed, String name) {
    Matcher m =
        Pattern.compile("^\\s*" + Pattern.quote(name) + "\\s*:\\s*(.*?)\\s*$", Pattern.MULTILINE)
            .matcher(printed);
    return m.find() ? m.group(1) : null;
  }
}
