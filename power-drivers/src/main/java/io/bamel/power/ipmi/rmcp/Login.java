package io.bamel.power.ipmi.rmcp;

import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * What opening a session to one BMC needs: its address, the user, the password (bytes the caller
 * clears with {@link #clear()} once the call returns), the cipher suite and the privilege level (2
 * user, 3 operator, 4 administrator). {@link #toString()} never shows the password.
 *
 * @param bmc the BMC's resolved address and port
 * @param user the user name (at most 16 bytes), empty for the anonymous user
 * @param password the password (at most 20 bytes)
 * @param suite the cipher suite
 * @param privilege the privilege level
 */
public record Login(
    InetSocketAddress bmc, byte[] user, byte[] password, CipherSuite suite, int privilege) {

  /** Privilege level USER. */
  public static final int USER = 2;

  /** Privilege level OPERATOR. */
  public static final int OPERATOR = 3;

  /** Privilege level ADMINISTRATOR. */
  public static final int ADMINISTRATOR = 4;

  /** Checks the lengths and the privilege. */
  public Login {
    if (user.length > 16) {
      throw new IllegalArgumentException("an IPMI user name has at most 16 bytes");
    }
    if (password.length > 20) {
      throw new IllegalArgumentException("an IPMI v2.0 password has at most 20 bytes");
    }
    if (privilege < USER || privilege > ADMINISTRATOR) {
      throw new IllegalArgumentException("privilege must be 2 to 4, not " + privilege);
    }
  }

  /**
   * The privilege level of {@code name} ({@code USER}, {@code OPERATOR}, {@code ADMINISTRATOR}).
   */
  public static int privilege(String name) {
    return switch (name) {
      case "USER" -> USER;
      case "OPERATOR" -> OPERATOR;
      case "ADMINISTRATOR" -> ADMINISTRATOR;
      default -> throw new IllegalArgumentException("unknown privilege level " + name);
    };
  }

  /** Overwrites the password. */
  public void clear() {
    Arrays.fill(password, (byte) 0);
  }

  @Override
  public String toString() {
    return "Login[bmc=" + bmc + ", suite=" + suite.id() + ", privilege=" + privilege + "]";
  }
}
