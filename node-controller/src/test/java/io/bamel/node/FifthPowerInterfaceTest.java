package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerAction;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Drivers;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.PowerInterfaceTypes;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;

/**
 * A fifth power interface, {@code pdu}, exists only in test code: package {@code io.bamel.fakepdu}
 * and one line in {@code META-INF/services/io.bamel.power.spi.PowerInterfaceType}. No other file of
 * bamel names it, yet a node spec may use it, the model checks its settings and rules with clear
 * field errors, its capabilities are what it declared, and the node controller's path (its registry
 * of drivers, {@link BmcEndpoints}, {@link NodeBmc}) switches its outlet on and off.
 */
class FifthPowerInterfaceTest {

  private static final String GOOD =
      """
      {"mgmtAddress":"192.0.2.40","powerInterface":"pdu","bmcCredentials":"strip-a",
       "pdu":{"strip":"a","outlet":7}}""";

  @Test
  void itIsRegisteredBesideTheFourWithTheCapabilitiesItDeclared() {
    assertThat(PowerInterfaceTypes.names())
        .contains("redfish", "ipmi", "wol", "proxmox", "pdu")
        .hasSize(5);
    PowerInterface pdu = PowerInterface.of("pdu");
    assertThat(pdu.capabilities()).isEqualTo(new PowerCapabilities(false, true, false, false));
    assertThat(PowerInterface.of("redfish").capabilities().bootOverride()).isTrue();
    assertThat(PowerInterfaceTypes.settingsFields())
        .contains("ipmi", "wakeOnLan", "proxmox", "pdu");
  }

  @Test
  void aSpecUsingItIsAcceptedAndKeepsItsSettingsAsTheyCame() {
    NodeSpec spec = decode(GOOD).validate();
    assertThat(spec.powerInterface().json()).isEqualTo("pdu");
    String stored = new String(Codec.encode(spec), StandardCharsets.UTF_8);
    assertThat(stored).contains("\"powerInterface\":\"pdu\"").contains("\"pdu\":{");
    assertThat(decode(stored)).isEqualTo(spec);
    assertThat(spec.canPowerOff("n5")).isTrue();
  }

  @Test
  void itsSettingsAndRulesAreCheckedWithTheSpecsFieldNames() {
    assertThat(errors(GOOD.replace("\"outlet\":7", "\"outlet\":99")))
        .containsExactly(new FieldError("pdu.outlet", "must be an outlet from 1 to 24"));
    assertThat(errors(GOOD.replace("\"outlet\":7", "\"outlet\":\"seven\"")))
        .containsExactly(new FieldError("pdu.outlet", "must be a whole number"));
    assertThat(errors(GOOD.replace("\"outlet\":7", "\"outlet\":7,\"phase\":2")))
        .containsExactly(new FieldError("pdu.phase", "is not a field of these settings"));
    assertThat(errors(GOOD.replace("{\"strip\":\"a\",\"outlet\":7}", "[]")))
        .containsExactly(new FieldError("pdu", "must be an object"));
    assertThat(errors(GOOD.replace(",\n \"pdu\":{\"strip\":\"a\",\"outlet\":7}", "")))
        .containsExactly(new FieldError("pdu", "required for pdu: the strip and outlet"));
    assertThat(errors(GOOD.replace("\"mgmtAddress\":\"192.0.2.40\",", "")))
        .containsExactly(new FieldError("mgmtAddress", "required for pdu: the strip's host"));
    assertThat(
            errors(
                GOOD.replace("\"bmcCredentials\"", "\"bootProfile\":\"pxe\",\"bmcCredentials\"")))
        .containsExactly(
            new FieldError(
                "bootProfile",
                "'pxe' boots from the network, which pdu cannot set up (no one-time boot device):"
                    + " use redfish or ipmi, or a disk profile"));
    assertThatThrownBy(() -> decode(GOOD.replace("\"pdu\",", "\"pdux\",")))
        .hasRootCauseInstanceOf(InvalidInputException.class)
        .rootCause()
        .hasMessageContaining("expected one of")
        .hasMessageContaining("pdu");
  }

  @Test
  void theNodeControllersPathDrivesItsDriver() throws Exception {
    NodeSpec spec = decode(GOOD).validate();
    BmcEndpoint endpoint = BmcEndpoints.of("n5", spec);
    assertThat(endpoint.address()).isEqualTo("192.0.2.40");
    assertThat(endpoint.credentialsName()).isEqualTo("strip-a");
    assertThat(endpoint.option("outlet")).contains("a/7");

    try (PowerDriverRegistry drivers =
        Drivers.standard(TestSite.CREDENTIALS, new PrometheusRegistry())) {
      assertThat(drivers.interfaces()).contains("pdu");
      NodeBmc bmc =
          NodeBmc.of(drivers, "n5", spec, new Semaphore(1), Duration.ofSeconds(5), () -> false);
      assertThat(bmc.read().state()).isEqualTo(BmcPowerState.OFF);
      bmc.act(Action.power(PowerAction.POWER_ON, false));
      assertThat(bmc.read().state()).isEqualTo(BmcPowerState.ON);
      assertThat(bmc.watts()).hasValue(180.0);
      bmc.act(Action.power(PowerAction.POWER_OFF, false));
      assertThat(bmc.read().state()).isEqualTo(BmcPowerState.OFF);
      assertThat(bmc.watts()).hasValue(0.0);
    }
  }

  private static NodeSpec decode(String json) {
    return Codec.decode(json.getBytes(StandardCharsets.UTF_8), NodeSpec.class);
  }

  private static java.util.List<FieldError> errors(String json) {
    try {
      decode(json).validate();
    } catch (InvalidInputException e) {
      return e.errors();
    }
    return java.util.List.of();
  }
}
