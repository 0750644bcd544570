package io.bamel.power.ipmi;

import io.bamel.power.HardwareInfo;
import io.bamel.power.ipmi.fru.FruInventory;
import java.util.List;

/**
 * The hardware facts of a FRU inventory, as {@link IpmiOutput#hardware} takes them from {@code
 * ipmitool fru print}: manufacturer, model and serial, each the product area's, else the board's
 * (blank fields count as absent, trailing spaces dropped). Pure.
 */
final class FruFacts {

  /** No facts: a BMC without a FRU inventory. */
  static final HardwareInfo NONE = IpmiOutput.hardware("");

  private FruFacts() {}

  static HardwareInfo hardware(FruInventory fru) {
    var product = fru.product();
    var board = fru.board();
    return new HardwareInfo(
        either(
            product.map(FruInventory.Product::manufacturer).orElse(null),
            board.map(FruInventory.Board::manufacturer).orElse(null)),
        either(
            product.map(FruInventory.Product::name).orElse(null),
            board.map(FruInventory.Board::product).orElse(null)),
        either(
            product.map(FruInventory.Product::serial).orElse(null),
            board.map(FruInventory.Board::serial).orElse(null)),
        null,
        null,
        null,
        List.of());
  }

  private static String either(String first, String second) {
    String a = first == null ? "" : first.strip();
    String b = second == null ? "" : second.strip();
    return !a.isEmpty() ? a : !b.isEmpty() ? b : null;
  }
}
