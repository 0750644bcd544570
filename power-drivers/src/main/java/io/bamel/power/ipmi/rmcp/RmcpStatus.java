package io.bamel.power.ipmi.rmcp;

/**
 * The RMCP+ and RAKP message status codes (IPMI v2.0 table 13-15), named for error messages, and
 * whether each means a wrong password or user, a refused cipher suite or privilege level. Pure.
 */
public final class RmcpStatus {

  private static final String[] NAMES = {
    "no errors",
    "insufficient resources to create a session",
    "invalid session ID",
    "invalid payload type",
    "invalid authentication algorithm",
    "invalid integrity algorithm",
    "no matching authentication payload",
    "no matching integrity payload",
    "inactive session ID",
    "invalid role",
    "unauthorized role or privilege level requested",
    "insufficient resources to create a session at the requested role",
    "invalid name length",
    "unauthorized name",
    "unauthorized GUID",
    "invalid integrity check value",
    "invalid confidentiality algorithm",
    "no cipher suite match with proposed security algorithms",
    "illegal or unrecognized parameter",
  };

  /** The kind of refusal a status code is. */
  public enum Kind {
    /** The BMC does not offer the cipher suite's algorithms. */
    CIPHER_SUITE,
    /** The user may not have the privilege level. */
    PRIVILEGE,
    /** The user name or the password is wrong. */
    CREDENTIALS,
    /** Anything else (a full session table, a protocol error). */
    OTHER
  }

  private RmcpStatus() {}

  /** {@code "unauthorized name (0x0d)"}. */
  public static String describe(int code) {
    String name = code >= 0 && code < NAMES.length ? NAMES[code] : "unknown status";
    return name + String.format(" (0x%02x)", code);
  }

  /** What status {@code code} refuses. */
  public static Kind kind(int code) {
    return switch (code) {
      case 0x04, 0x05, 0x06, 0x07, 0x10, 0x11 -> Kind.CIPHER_SUITE;
      case 0x09, 0x0a, 0x0b -> Kind.PRIVILEGE;
      case 0x0c, 0x0d, 0x0f -> Kind.CREDENTIALS;
      default -> Kind.OTHER;
    };
  }
}
