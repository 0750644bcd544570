package io.bamel.power;

import java.util.Objects;

/**
 * A boot device override.
 *
 * @param device the device to boot from
 * @param persistent {@code false}: only for the next boot (Redfish {@code Once}); {@code true}: for
 *     every boot until changed (Redfish {@code Continuous}; a BMC that offers no persistent
 *     override gets a one-time override and the driver's result says so)
 * @param mode the firmware boot mode to ask for, or {@code null} to keep the one the system has
 */
public record BootOverride(BootDevice device, boolean persistent, BootMode mode) {

  /** Checks that the device is given. */
  public BootOverride {
    Objects.requireNonNull(device, "device");
  }

  /** An override that keeps the system's boot mode. */
  public BootOverride(BootDevice device, boolean persistent) {
    this(device, persistent, null);
  }

  /** Boot from the network once. */
  public static BootOverride pxeOnce() {
    return new BootOverride(BootDevice.PXE, false);
  }
}
