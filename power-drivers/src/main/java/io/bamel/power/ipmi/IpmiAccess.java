package io.bamel.power.ipmi;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import java.util.List;
import java.util.Locale;

/**
 * The RMCP+ cipher suite ({@code -C}) and privilege level ({@code -L}) of one IPMI endpoint: the
 * endpoint's options {@link IpmiDriver#OPTION_CIPHER_SUITE} and {@link IpmiDriver#OPTION_PRIVILEGE}
 * where set, else the driver's defaults (suite 3, {@code ADMINISTRATOR}). Pure.
 *
 * <p>Valid values: a cipher suite from 0 to 17 (the suites ipmitool knows; 3 and 17 are the ones
 * with authentication, integrity and AES encryption, by SHA-1 and SHA-256); a privilege level of
 * {@code USER}, {@code OPERATOR} or {@code ADMINISTRATOR} (any case). Power control needs {@code
 * OPERATOR}.
 *
 * @param cipherSuite the cipher suite
 * @param privilege the privilege level, upper case
 */
public record IpmiAccess(int cipherSuite, String privilege) {

  /** The highest cipher suite ipmitool knows. */
  public static final int MAX_CIPHER_SUITE = 17;

  /** The privilege levels a node may ask for. */
  public static final List<String> PRIVILEGES = List.of("USER", "OPERATOR", "ADMINISTRATOR");

  /** Checks both values. */
  public IpmiAccess {
    if (cipherSuite < 0 || cipherSuite > MAX_CIPHER_SUITE) {
      throw new IllegalArgumentException(
          "cipher suite must be 0 to " + MAX_CIPHER_SUITE + ", not " + cipherSuite);
    }
    if (!PRIVILEGES.contains(privilege)) {
      throw new IllegalArgumentException(
          "privilege must be one of " + PRIVILEGES + ", not " + privilege);
    }
  }

  /**
   * The access of {@code endpoint}: its options, else {@code defaults}'.
   *
   * @throws TerminalPowerException {@link PowerException.Reason#INVALID_CONFIG} naming the option
   *     and its value when one is not valid
   */
  public static IpmiAccess of(BmcEndpoint endpoint, IpmiConfig defaults)
      throws TerminalPowerException {
    int suite = defaults.cipherSuite();
    String suiteText = endpoint.option(IpmiDriver.OPTION_CIPHER_SUITE).orElse(null);
    if (suiteText != null) {
      suite = parseCipherSuite(suiteText);
    }
    String privilegeText =
        endpoint.option(IpmiDriver.OPTION_PRIVILEGE).orElse(defaults.privilege());
    return new IpmiAccess(suite, parsePrivilege(privilegeText));
  }

  /** A cipher suite option's value, checked. */
  public static int parseCipherSuite(String value) throws TerminalPowerException {
    try {
      int suite = Integer.parseInt(value.trim());
      if (suite >= 0 && suite <= MAX_CIPHER_SUITE) {
        return suite;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new TerminalPowerException(
        PowerException.Reason.INVALID_CONFIG,
        "IPMI option "
            + IpmiDriver.OPTION_CIPHER_SUITE
            + " must be a cipher suite from 0 to "
            + MAX_CIPHER_SUITE
            + ", not '"
            + value
            + "'");
  }

  /** A privilege option's value, checked and upper-cased. */
  public static String parsePrivilege(String value) throws TerminalPowerException {
    String upper = value.trim().toUpperCase(Locale.ROOT);
    if (PRIVILEGES.contains(upper)) {
      return upper;
    }
    throw new TerminalPowerException(
        PowerException.Reason.INVALID_CONFIG,
        "IPMI option "
            + IpmiDriver.OPTION_PRIVILEGE
            + " must be one of "
            + PRIVILEGES
            + ", not '"
            + value
            + "'");
  }

  /** {@code cipher suite 3, privilege ADMINISTRATOR}, for messages. */
  public String describe() {
    return "cipher suite " + cipherSuite + ", privilege " + privilege;
  }
}
