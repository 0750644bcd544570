package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.net.testing.RedirectTrap;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A BMC at an allowed address answers {@code 302} to another origin (finding 5 of issue 30): the
 * node controller's driver follows nothing, and the node's {@code status.lastError} says which
 * origin was refused, as the terminal error it is.
 */
class NodeRedirectAttackIT extends TestSiteTests {

  @Test
  void attack_bmcRedirectToOtherOriginIsTheNodesError() throws Exception {
    try (RedirectTrap trap = RedirectTrap.start()) {
      openSite();
      site.inventory.createNode(
          "m1",
          NodeSpec.builder()
              .name("m1")
              .mgmtAddress(trap.allowedOrigin())
              .powerInterface(PowerInterface.of("redfish"))
              .bmcCredentials("bmc")
              .desiredPower(DesiredPower.ON)
              .build(),
          null);
      site.controller("nc-redirect");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> site.node("m1").statusOrInitial().lastError() != null);
      assertThat(site.node("m1").statusOrInitial().lastError())
          .contains("PROTOCOL: ")
          .contains("refused redirect to another origin " + trap.otherOrigin());
      assertThat(trap.allowedRequests()).isPositive();
      assertThat(trap.otherConnections()).isZero();
    }
  }
}
