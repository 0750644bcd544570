package io.bamel.power.sim.ipmi;

/**
 * The IPMI commands a simulated BMC carries out in a session, each with the privilege level the
 * IPMI v2.0 specification's command table (appendix G) asks for: Get Device ID (20.1), Get System
 * GUID (22.14), Get Channel Authentication Capabilities (22.13), Set Session Privilege Level
 * (22.18), Close Session (22.19), Get Chassis Status (28.2) and Chassis Control (28.3). Any other
 * command is answered with completion code C1h (invalid command).
 */
final class SimCommands {

  static final int NETFN_CHASSIS = 0x00;
  static final int NETFN_APP = 0x06;

  static final int OK = 0x00;
  static final int INVALID_COMMAND = 0xc1;
  static final int REQUEST_TOO_SHORT = 0xc7;
  static final int OUT_OF_RANGE = 0xc9;
  static final int INVALID_DATA = 0xcc;
  static final int INSUFFICIENT_PRIVILEGE = 0xd4;
  static final int NOT_IN_PRESENT_STATE = 0xd5;
  static final int LEVEL_NOT_AVAILABLE = 0x80;
  static final int LEVEL_EXCEEDS_LIMIT = 0x81;
  static final int INVALID_SESSION = 0x87;

  /**
   * A command's outcome.
   *
   * @param completionCode the completion code
   * @param data the response data after it
   * @param endSession whether the session ends once this answer is sent (Close Session)
   */
  record Outcome(int completionCode, byte[] data, boolean endSession) {
    static Outcome of(int completionCode, byte... data) {
      return new Outcome(completionCode, data, false);
    }
  }

  private SimCommands() {}

  /** Carries out {@code request} in session {@code s} of {@code bmc}. */
  static Outcome execute(SimIpmiBmc bmc, SimSession s, LanRequest request) {
    byte[] d = request.data();
    int command = request.command();
    if (request.netFn() == NETFN_APP) {
      return switch (command) {
        case 0x01 -> deviceId();
        case 0x37 -> Outcome.of(OK, bmc.guidBytes());
        case 0x38 -> d.length < 2 ? Outcome.of(REQUEST_TOO_SHORT) : authCapabilities(d);
        case 0x3b -> setPrivilege(s, d);
        case 0x3c -> closeSession(bmc, s, d);
        default -> Outcome.of(INVALID_COMMAND);
      };
    }
    if (request.netFn() == NETFN_CHASSIS) {
      return switch (command) {
        case 0x01 -> chassisStatus(bmc);
        case 0x02 ->
            s.privilege < SimIpmiUser.OPERATOR
                ? Outcome.of(INSUFFICIENT_PRIVILEGE)
                : chassisControl(bmc, d);
        default -> Outcome.of(INVALID_COMMAND);
      };
    }
    return Outcome.of(INVALID_COMMAND);
  }

  /**
   * Get Channel Authentication Capabilities: RMCP+ only (no IPMI v1.5 authentication type),
   * non-null user names, per-message and user-level authentication on, no BMC key (Kg); the IPMI
   * v2.0 extended data when bit 7 of the channel byte asks for it.
   */
  static Outcome authCapabilities(byte[] d) {
    int channel = d[0] & 0x0f;
    int privilege = d[1] & 0x0f;
    if ((channel != 0x0e && channel != 0x01) || privilege < 1 || privilege > 5) {
      return Outcome.of(INVALID_DATA);
    }
    boolean extended = (d[0] & 0x80) != 0;
    return Outcome.of(
        OK,
        (byte) 0x01, // channel number
        (byte) (extended ? 0x80 : 0x00), // extended capabilities; no v1.5 authentication type
        (byte) 0x04, // non-null user names enabled; per-message and user-level auth on; Kg all 0
        (byte) (extended ? 0x02 : 0x00), // IPMI v2.0 (RMCP+) connections supported
        (byte) 0x00,
        (byte) 0x00,
        (byte) 0x00, // OEM ID
        (byte) 0x00); // OEM auxiliary data
  }

  private static Outcome deviceId() {
    return Outcome.of(
        OK,
        (byte) 0x20, // device ID
        (byte) 0x01, // device revision, no SDRs
        (byte) 0x01, // firmware major revision, device available
        (byte) 0x00, // firmware minor revision (BCD)
        (byte) 0x02, // IPMI version 2.0 (BCD, 0x02 = 2.0)
        (byte) 0x80, // additional device support: chassis device
        (byte) 0x00,
        (byte) 0x00,
        (byte) 0x00, // manufacturer ID (none)
        (byte) 0x00,
        (byte) 0x00); // product ID
  }

  private static Outcome setPrivilege(SimSession s, byte[] d) {
    if (d.length < 1) {
      return Outcome.of(REQUEST_TOO_SHORT);
    }
    int level = d[0] & 0x0f;
    if (level == 0) {
      return Outcome.of(OK, (byte) s.privilege);
    }
    if (level == 1 || level > 5) {
      return Outcome.of(INVALID_DATA);
    }
    if (level == 5) {
      return Outcome.of(LEVEL_NOT_AVAILABLE);
    }
    if (level > s.maxPrivilege) {
      return Outcome.of(LEVEL_EXCEEDS_LIMIT);
    }
    s.privilege = level;
    return Outcome.of(OK, (byte) level);
  }

  private static Outcome closeSession(SimIpmiBmc bmc, SimSession s, byte[] d) {
    if (d.length < 4) {
      return Outcome.of(REQUEST_TOO_SHORT);
    }
    int id = Wire.u32(d, 0);
    if (id == s.managedId) {
      return new Outcome(OK, new byte[0], true);
    }
    if (s.privilege < SimIpmiUser.ADMINISTRATOR) {
      return Outcome.of(INSUFFICIENT_PRIVILEGE);
    }
    return bmc.endSession(id) ? Outcome.of(OK) : Outcome.of(INVALID_SESSION);
  }

  /**
   * Get Chassis Status: byte 1 bit 0 the power, bits 6:5 the restore policy (01b, restore the
   * previous state); byte 2 the last power event (10h: by IPMI command when one was made); byte 3
   * miscellaneous chassis state (none).
   */
  private static Outcome chassisStatus(SimIpmiBmc bmc) {
    int power = 0x20 | (bmc.poweredOn() ? 0x01 : 0x00);
    int lastEvent = bmc.controls() > 0 ? 0x10 : 0x00;
    return Outcome.of(OK, (byte) power, (byte) lastEvent, (byte) 0x00);
  }

  /**
   * Chassis Control: 0 power down, 1 power up, 2 power cycle (D5h when off, as the specification
   * recommends), 3 hard reset, 4 diagnostic interrupt, 5 soft shutdown (the simulated OS obeys at
   * once).
   */
  private static Outcome chassisControl(SimIpmiBmc bmc, byte[] d) {
    if (d.length < 1) {
      return Outcome.of(REQUEST_TOO_SHORT);
    }
    int action = d[0] & 0x0f;
    switch (action) {
      case 0, 5 -> bmc.setPoweredOn(false);
      case 1 -> bmc.setPoweredOn(true);
      case 2, 3, 4 -> {
        if (!bmc.poweredOn()) {
          return Outcome.of(NOT_IN_PRESENT_STATE);
        }
      }
      default -> {
        return Outcome.of(OUT_OF_RANGE);
      }
    }
    bmc.controlled(action);
    return Outcome.of(OK);
  }
}
