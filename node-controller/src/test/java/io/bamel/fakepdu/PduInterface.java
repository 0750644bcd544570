package io.bamel.fakepdu;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.DriverContext;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverFactory;
import io.bamel.power.spi.CliFlag;
import io.bamel.power.spi.FieldChecks;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.SettingsJson;
import java.util.List;
import java.util.Map;

/**
 * A fifth power interface, {@code pdu} (a switched, metered power strip), added in test code only:
 * this package and one line in {@code META-INF/services/io.bamel.power.spi.PowerInterfaceType}.
 * Nothing else in bamel names it; FifthPowerInterfaceTest shows the model accepts and checks it,
 * reports its capabilities, and the node controller's path drives its driver.
 */
public final class PduInterface implements PowerDriverFactory {

  /** The wire name. */
  public static final String NAME = "pdu";

  /** Endpoint option: the strip and outlet, {@code strip/outlet}. */
  public static final String OPTION_OUTLET = "outlet";

  @Override
  public String name() {
    return NAME;
  }

  /** A metered strip reads power draw; it cannot boot, inspect or shut an OS down. */
  @Override
  public PowerCapabilities capabilities() {
    return new PowerCapabilities(false, true, false, false);
  }

  @Override
  public String settingsField() {
    return "pdu";
  }

  @Override
  public void checkSettings(JsonNode settings, FieldChecks checks) {
    PduSettings pdu = SettingsJson.read(settings, PduSettings.class, checks);
    if (pdu != null) {
      pdu.check(checks);
    }
  }

  @Override
  public void checkNode(NodeFacts node, FieldChecks checks) {
    checks.check(node.mgmtAddress() != null, "mgmtAddress", "required for pdu: the strip's host");
    checks.check(node.field("pdu") != null, "pdu", "required for pdu: the strip and outlet");
  }

  @Override
  public Map<String, String> options(NodeFacts node) {
    JsonNode pdu = node.field("pdu");
    if (pdu == null) {
      return Map.of();
    }
    return Map.of(OPTION_OUTLET, pdu.path("strip").asText() + "/" + pdu.path("outlet").asText());
  }

  @Override
  public List<CliFlag> cliFlags() {
    return List.of(new CliFlag("--outlet", "STRIP/N", "pdu: the strip and outlet", OPTION_OUTLET));
  }

  @Override
  public PowerDriver create(DriverContext context) {
    return new PduDriver();
  }
}
