package io.bamel.power;

/** The device a system boots from next. */
public enum BootDevice {
  /** Network boot (PXE). */
  PXE,
  /** The local disk. */
  DISK
}
