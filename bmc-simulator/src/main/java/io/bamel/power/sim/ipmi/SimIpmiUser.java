package io.bamel.power.sim.ipmi;

import java.nio.charset.StandardCharsets;

/**
 * A user account of a simulated IPMI BMC: its name, its password (the RAKP key Kuid, at most 20
 * bytes) and the highest privilege level it may have a session at (IPMI v2.0 table 6-2: 2 user, 3
 * operator, 4 administrator).
 *
 * @param name the user name, 1 to 16 bytes
 * @param password the password, at most 20 bytes
 * @param maxPrivilege 2, 3 or 4
 */
public record SimIpmiUser(String name, String password, int maxPrivilege) {

  /** The user privilege level: reads only. */
  public static final int USER = 2;

  /** The operator privilege level: chassis control too. */
  public static final int OPERATOR = 3;

  /** The administrator privilege level. */
  public static final int ADMINISTRATOR = 4;

  /** Checks the lengths and the privilege level. */
  public SimIpmiUser {
    int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (nameBytes < 1 || nameBytes > 16) {
      throw new IllegalArgumentException("an IPMI user name has 1 to 16 bytes: " + name);
    }
    if (password.getBytes(StandardCharsets.UTF_8).length > 20) {
      throw new IllegalArgumentException("an IPMI password has at most 20 bytes");
    }
    if (maxPrivilege < USER || maxPrivilege > ADMINISTRATOR) {
      throw new IllegalArgumentException("privilege level 2 to 4, not " + maxPrivilege);
    }
  }

  byte[] nameBytes() {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  byte[] key() {
    return password.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "SimIpmiUser[" + name + ", privilege " + maxPrivilege + "]";
  }
}
