package io.bamel.power;

/** The firmware boot mode a boot override asks for (Redfish {@code BootSourceOverrideMode}). */
public enum BootMode {
  /** UEFI boot (Redfish {@code UEFI}). */
  UEFI,
  /** Legacy BIOS boot (Redfish {@code Legacy}). */
  LEGACY;

  /** The Redfish value: {@code UEFI} or {@code Legacy}. */
  public String redfishValue() {
    return this == UEFI ? "UEFI" : "Legacy";
  }
}
