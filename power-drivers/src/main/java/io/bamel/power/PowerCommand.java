package io.bamel.power;

import java.util.Objects;

/**
 * A power action as one value, for {@link PowerDriver#execute}: switch on, switch off (gracefully
 * or by force), power-cycle, or set the boot device.
 */
public sealed interface PowerCommand {

  /** The operation this command is, as named in metrics. */
  default PowerOperation operation() {
    return switch (this) {
      case On on -> PowerOperation.ON;
      case Off off -> PowerOperation.OFF;
      case Cycle cycle -> PowerOperation.CYCLE;
      case Boot boot -> PowerOperation.BOOT;
    };
  }

  /** Switch the system on. */
  record On() implements PowerCommand {}

  /**
   * Switch the system off.
   *
   * @param mode graceful (the operating system shuts down) or by force
   */
  record Off(PowerOffMode mode) implements PowerCommand {
    /** Checks the mode. */
    public Off {
      Objects.requireNonNull(mode, "mode");
    }
  }

  /** Power-cycle the system. */
  record Cycle() implements PowerCommand {}

  /**
   * Set the boot device.
   *
   * @param override the device, once or persistent, and the boot mode
   */
  record Boot(BootOverride override) implements PowerCommand {
    /** Checks the override. */
    public Boot {
      Objects.requireNonNull(override, "override");
    }
  }

  /** {@link On}. */
  static PowerCommand on() {
    return new On();
  }

  /** {@link Off} in {@code mode}. */
  static PowerCommand off(PowerOffMode mode) {
    return new Off(mode);
  }

  /** {@link Cycle}. */
  static PowerCommand cycle() {
    return new Cycle();
  }

  /** {@link Boot} with {@code override}. */
  static PowerCommand boot(BootOverride override) {
    return new Boot(override);
  }
}
