package io.bamel.node;

import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.READY;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.power.sim.SimProfile;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The node events of power actions say what the driver sent: the Redfish reset types, a graceful
 * off that the BMC cannot do and the force that follows after the power-off timeout.
 */
class PowerActionEventsIT extends TestSiteTests {

  static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void eventsNameTheResetTypesSent() throws Exception {
    openSite();
    String plain = site.addNodes(1, "batch", DesiredPower.ON).getFirst();
    String ilo = "ilo-1";
    site.fleet.add(ilo, TestSite.MACHINE.withProfile(SimProfile.ILO5));
    site.inventory.createNode(ilo, site.spec(ilo, "batch", DesiredPower.ON), null);
    site.controller("a");
    site.awaitState(List.of(plain, ilo), READY, WAIT);

    site.desire(plain, DesiredPower.OFF);
    site.desire(ilo, DesiredPower.OFF);
    site.awaitState(List.of(plain, ilo), OFF, WAIT);

    assertThat(reasons(plain)).contains("power-on: sent On", "power-off: sent GracefulShutdown");
    assertThat(reasons(ilo)).contains("power-on: sent On", "power-off: sent PushPowerButton");
    assertThat(site.resets(ilo, "ForceOff")).isZero();
  }

  @Test
  void aGracefulOffTheBmcCannotDoIsForcedAtOnceAndSaysSo() throws Exception {
    openSite();
    String id = "noshutdown-1";
    site.fleet.add(id, TestSite.MACHINE.withResetTypes(List.of("On", "ForceOff", "ForceRestart")));
    site.inventory.createNode(id, site.spec(id, "batch", DesiredPower.ON), null);
    site.controller("a");
    site.awaitState(List.of(id), READY, WAIT);

    site.desire(id, DesiredPower.OFF);
    site.awaitState(List.of(id), OFF, WAIT);

    List<NodeEvent> events = site.events(id);
    NodeEvent unsupported =
        events.stream().filter(e -> "unsupported".equals(e.result())).findFirst().orElseThrow();
    assertThat(unsupported.action()).isEqualTo("power-off");
    assertThat(unsupported.reason())
        .startsWith("power-off: nothing sent, no graceful off (UNSUPPORTED: ")
        .endsWith("forcing at once");
    assertThat(reasons(id)).contains("power-off-force: sent ForceOff");
    NodeEvent forced =
        events.stream()
            .filter(e -> "power-off-force: sent ForceOff".equals(e.reason()))
            .findFirst()
            .orElseThrow();
    assertThat(Duration.between(unsupported.time(), forced.time()))
        .as("forced right after the graceful off was refused, not after the 3s timeout")
        .isLessThan(Duration.ofSeconds(2));
    assertThat(site.resets(id, "ForceOff")).isEqualTo(1);
    assertThat(events.stream().filter(e -> "failed".equals(e.result()))).isEmpty();
  }

  private List<String> reasons(String id) {
    return site.events(id).stream().map(NodeEvent::reason).toList();
  }
}
