package io.bamel.power.ipmi.rmcp;

/**
 * One IPMI request this client sends: network function, command and request data (IPMI v2.0
 * sections 22 and 28, DCMI 1.5 section 6.6), with the encoders of the ones it uses. Pure.
 *
 * @param netFn the request network function (even)
 * @param command the command number
 * @param data the request data
 * @param name how messages name it
 */
public record IpmiCommand(int netFn, int command, byte[] data, String name) {

  /** NetFn Chassis. */
  static final int CHASSIS = 0x00;

  /** NetFn Application. */
  static final int APP = 0x06;

  /** NetFn Group Extension (DCMI). */
  static final int GROUP_EXTENSION = 0x2c;

  /** The DCMI group extension identifier. */
  static final int DCMI = 0xdc;

  /** Chassis Control's actions (IPMI v2.0 table 28-4). */
  public enum ChassisAction {
    /** Power down: a hard off. */
    POWER_DOWN(0),
    /** Power up. */
    POWER_UP(1),
    /** Power cycle: off, then on after at least 1 s. */
    POWER_CYCLE(2),
    /** Hard reset. */
    HARD_RESET(3),
    /** Soft shutdown: an ACPI overtemperature emulation the OS sees as a power button. */
    SOFT_SHUTDOWN(5);

    final int code;

    ChassisAction(int code) {
      this.code = code;
    }
  }

  /** Get Channel Authentication Capabilities for this channel, asking for the v2.0 data. */
  static IpmiCommand channelAuthenticationCapabilities(int privilege) {
    return new IpmiCommand(
        APP,
        0x38,
        new byte[] {(byte) 0x8e, (byte) privilege},
        "Get Channel Authentication Capabilities");
  }

  /** Set Session Privilege Level. */
  static IpmiCommand setSessionPrivilege(int privilege) {
    return new IpmiCommand(APP, 0x3b, new byte[] {(byte) privilege}, "Set Session Privilege Level");
  }

  /** Close Session of {@code bmcSessionId}. */
  static IpmiCommand closeSession(int bmcSessionId) {
    return new IpmiCommand(APP, 0x3c, Bytes.le32(bmcSessionId), "Close Session");
  }

  /** Get System GUID. */
  public static IpmiCommand systemGuid() {
    return new IpmiCommand(APP, 0x37, new byte[0], "Get System GUID");
  }

  /** Get Chassis Status. */
  public static IpmiCommand chassisStatus() {
    return new IpmiCommand(CHASSIS, 0x01, new byte[0], "Get Chassis Status");
  }

  /** Chassis Control. */
  public static IpmiCommand chassisControl(ChassisAction action) {
    return new IpmiCommand(
        CHASSIS, 0x02, new byte[] {(byte) action.code}, "Chassis Control " + action);
  }

  /**
   * Set System Boot Options, parameter 5 (boot flags, IPMI v2.0 table 28-14): valid, persistent or
   * next boot only, EFI or legacy, the device ({@code pxe} 0001b or {@code disk} 0010b in bits 5:2
   * of the second byte).
   */
  public static IpmiCommand bootFlags(boolean pxe, boolean persistent, boolean efi) {
    int flags = 0x80 | (persistent ? 0x40 : 0) | (efi ? 0x20 : 0);
    int device = pxe ? 0x04 : 0x08;
    return new IpmiCommand(
        CHASSIS,
        0x08,
        new byte[] {0x05, (byte) flags, (byte) device, 0, 0, 0},
        "Set System Boot Options (boot flags)");
  }

  /** DCMI Get Power Reading, system power statistics mode. */
  public static IpmiCommand dcmiPowerReading() {
    return new IpmiCommand(
        GROUP_EXTENSION, 0x02, new byte[] {(byte) DCMI, 0x01, 0, 0}, "DCMI Get Power Reading");
  }

  /** NetFn Storage. */
  static final int STORAGE = 0x0a;

  /** Get FRU Inventory Area Info of FRU device {@code device} (IPMI v2.0 section 34.1). */
  public static IpmiCommand fruAreaInfo(int device) {
    return new IpmiCommand(
        STORAGE, 0x10, new byte[] {(byte) device}, "Get FRU Inventory Area Info");
  }

  /** Read FRU Data: {@code count} bytes of FRU device {@code device} from {@code offset}. */
  public static IpmiCommand readFru(int device, int offset, int count) {
    return new IpmiCommand(
        STORAGE,
        0x11,
        new byte[] {(byte) device, (byte) offset, (byte) (offset >>> 8), (byte) count},
        "Read FRU Data");
  }
}
