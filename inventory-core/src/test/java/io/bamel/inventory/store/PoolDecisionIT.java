package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.model.PowerPolicy;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import io.etcd.jetcd.Client;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PoolDecisionIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void oneTransactionWritesEveryNodeAndThePoolStatus() {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      long r1 = inventory.createNode("n1", TestNodes.spec(1, "p"), null);
      long r2 = inventory.createNode("n2", TestNodes.spec(2, "p"), null);
      long before = ETCD.cluster().revision();
      long rev =
          inventory.applyPoolDecision(
              "p",
              List.of(
                  new DesiredPowerChange(
                      "n1", r1, DesiredPower.ON, NodeEvent.of(T0, "scale-up", "pending pods")),
                  new DesiredPowerChange(
                      "n2", r2, DesiredPower.ON, NodeEvent.of(T0, "scale-up", "pending pods"))),
              PoolStatus.builder().desiredNodes(2).lastScaleTime(T0).build(),
              null);
      assertThat(rev).isEqualTo(before + 1);
      assertThat(inventory.getNode("n1").orElseThrow().spec().desiredPower())
          .isEqualTo(DesiredPower.ON);
      assertThat(inventory.getNode("n2").orElseThrow().spec().desiredPower())
          .isEqualTo(DesiredPower.ON);
      assertThat(inventory.getPool("p").orElseThrow().status().desiredNodes()).isEqualTo(2);
      assertThat(inventory.events("n1")).extracting(NodeEvent::reason).containsExactly("scale-up");
    }
  }

  @Test
  void aStaleOrManualNodeFailsTheWholeDecision() {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      long r1 = inventory.createNode("n1", TestNodes.spec(1, "p"), null);
      long r2 = inventory.createNode("n2", TestNodes.spec(2, "p"), null);
      long r2b =
          StoreEdits.updateSpec(inventory, "n2", s -> s.toBuilder().rack("moved").build(), null)
              .revision();
      assertThatThrownBy(
              () ->
                  inventory.applyPoolDecision(
                      "p",
                      List.of(
                          new DesiredPowerChange("n1", r1, DesiredPower.ON, null),
                          new DesiredPowerChange("n2", r2, DesiredPower.ON, null)),
                      PoolStatus.builder().build(),
                      null))
          .isInstanceOf(ConflictException.class);
      StoreEdits.updateSpec(
          inventory, "n2", s -> s.toBuilder().powerPolicy(PowerPolicy.MANUAL).build(), null);
      long r2c = inventory.getNode("n2").orElseThrow().specRevision();
      assertThat(r2c).isGreaterThan(r2b);
      assertThatThrownBy(
              () ->
                  inventory.applyPoolDecision(
                      "p",
                      List.of(new DesiredPowerChange("n2", r2c, DesiredPower.ON, null)),
                      PoolStatus.builder().build(),
                      null))
          .isInstanceOf(ConflictException.class)
          .hasMessageContaining("no longer managed");
      assertThat(inventory.getNode("n1").orElseThrow().spec().desiredPower())
          .isEqualTo(DesiredPower.OFF);
      assertThat(inventory.getPool("p").orElseThrow().status()).isNull();
    }
  }
}
