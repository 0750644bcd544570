package io.bamel.power.ipmi;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.SettingsJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How bamel logs in to a node's IPMI BMC, the node spec's {@code ipmi} field ({@link
 * IpmiInterface#FIELD}): the RMCP+ cipher suite (0 to 17, the suites ipmitool knows) and the
 * privilege level the session asks for ({@code USER}, {@code OPERATOR} or {@code ADMINISTRATOR}).
 * Each is optional; an unset one keeps the driver's default (suite 3, {@code ADMINISTRATOR}).
 * Members it does not declare are kept in {@code extensions}: {@code implementation} ({@code
 * native} or {@code ipmitool}) is read from there, so that the API's schema stays as it was.
 *
 * @param cipherSuite the RMCP+ cipher suite, or null
 * @param privilege the privilege level, or null
 * @param extensions members this version does not declare, kept and written back
 */
public record IpmiSettings(
    Integer cipherSuite,
    String privilege,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** The member of {@code extensions} naming the client implementation. */
  public static final String IMPLEMENTATION = "implementation";

  /** Copies {@code extensions}, keeping order; none becomes empty. */
  public IpmiSettings {
    extensions =
        extensions == null || extensions.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  /** Settings with both values (either may be null). */
  public static IpmiSettings of(Integer cipherSuite, String privilege) {
    return new IpmiSettings(cipherSuite, privilege, null);
  }

  /** The node's IPMI settings, or {@code null} when it has none (or they cannot be read). */
  public static IpmiSettings of(NodeFacts node) {
    return SettingsJson.readOrNull(node.field(IpmiInterface.FIELD), IpmiSettings.class);
  }

  /** The client implementation the node asks for, or {@code null}. */
  public String implementation() {
    Object value = extensions.get(IMPLEMENTATION);
    return value instanceof String s ? s : null;
  }

  /** Checks the suite's range and the privilege's name. */
  void check(FieldChecks checks) {
    checks.check(
        cipherSuite == null || cipherSuite >= 0 && cipherSuite <= IpmiAccess.MAX_CIPHER_SUITE,
        "cipherSuite",
        "must be a cipher suite from 0 to " + IpmiAccess.MAX_CIPHER_SUITE);
    checks.check(
        privilege == null || IpmiAccess.PRIVILEGES.contains(privilege),
        "privilege",
        "must be one of " + String.join(", ", IpmiAccess.PRIVILEGES));
  }
}
