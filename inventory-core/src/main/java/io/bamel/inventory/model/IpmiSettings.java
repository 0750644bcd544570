package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import java.util.List;
import java.util.Map;

/**
 * How bamel logs in to a node's IPMI BMC ({@code ipmi} in the spec): the RMCP+ cipher suite (0 to
 * 17, the suites ipmitool knows) and the privilege level the session asks for ({@code USER}, {@code
 * OPERATOR} or {@code ADMINISTRATOR}). Each is optional; an unset one keeps the driver's default
 * (suite 3, {@code ADMINISTRATOR}).
 */
public record IpmiSettings(
    Integer cipherSuite,
    String privilege,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** The highest cipher suite ipmitool knows. */
  public static final int MAX_CIPHER_SUITE = 17;

  /** The privilege levels a session may ask for. */
  public static final List<String> PRIVILEGES = List.of("USER", "OPERATOR", "ADMINISTRATOR");

  /** Normalises a missing extension map to an empty one. */
  public IpmiSettings {
    extensions = Extensions.copy(extensions);
  }

  /** Settings with both values (either may be null). */
  public static IpmiSettings of(Integer cipherSuite, String privilege) {
    return new IpmiSettings(cipherSuite, privilege, null);
  }

  /** Checks the suite's range and the privilege's name. */
  void validate(Validator v) {
    v.check(
        cipherSuite == null || cipherSuite >= 0 && cipherSuite <= MAX_CIPHER_SUITE,
        "cipherSuite",
        "must be a cipher suite from 0 to " + MAX_CIPHER_SUITE);
    v.check(
        privilege == null || PRIVILEGES.contains(privilege),
        "privilege",
        "must be one of " + String.join(", ", PRIVILEGES));
  }
}
