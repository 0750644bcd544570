package io.bamel.power;

/** How to switch a system off. */
public enum PowerOffMode {
  /**
   * Ask the operating system to shut down (ACPI power button, Redfish {@code GracefulShutdown},
   * Proxmox {@code shutdown}); when the system is still on after the driver's graceful timeout,
   * switch it off by force.
   */
  GRACEFUL,
  /** Cut the power at once. */
  FORCE
}
