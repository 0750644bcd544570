package io.bamel.power;

import java.util.Objects;

/**
 * A boot device override.
 *
 * @param device the device to boot from
 * @param persistent {@code false}: only for the next boot (Redfish {@code Once}); {@code true}: for
 *     every boot until changed (Redfish {@code Continuous})
 */
public record BootOverride(BootDevice device, boolean persistent) {

  /** Checks that the device is given. */
  public BootOverride {
    Objects.requireNonNull(device, "device");
  }

  /** Boot from the network once. */
  public static BootOverride pxeOnce() {
    return new BootOverride(BootDevice.PXE, false);
  }
}
