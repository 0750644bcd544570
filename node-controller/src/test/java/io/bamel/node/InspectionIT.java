package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeCondition;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.NodeState;
import io.bamel.power.sim.SimProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Hardware inspection on real etcd against a simulated iDRAC 9 (GPUs, a host-interface NIC): stored
 * at first contact, again on request (a request written while no controller runs survives to the
 * next one), a serial that differs from the DCIM's shown as a condition, and nothing rewritten by
 * the periodic sync.
 */
class InspectionIT extends TestSiteTests {

  static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void inspectsOnFirstContactOnRequestAndShowsADcimMismatch() throws Exception {
    openSite();
    String id = "idrac-1";
    site.fleet.add(id, TestSite.MACHINE.withProfile(SimProfile.IDRAC9));
    String serial = "SIM-" + id.toUpperCase(Locale.ROOT);
    site.inventory.createNode(
        id, site.spec(id, "batch", DesiredPower.OFF).toBuilder().serial(serial).build(), null);
    NodeControllerConfig fastSync =
        TestSite.CONFIG.withIntervals(Duration.ofMillis(100), Duration.ofMillis(100));
    ControllerInstance first = site.controller("a", fastSync, TestSite.drivers(d -> d));

    // first contact
    await()
        .atMost(WAIT)
        .until(() -> site.node(id).status() != null && site.node(id).status().hardware() != null);
    site.awaitState(List.of(id), NodeState.OFF, WAIT);
    NodeHardware hw = site.node(id).status().hardware();
    assertThat(hw.error()).isNull();
    assertThat(hw.vendor()).isEqualTo("Dell Inc.");
    assertThat(hw.model()).isEqualTo("PowerEdge R750");
    assertThat(hw.serial()).isEqualTo(serial);
    assertThat(hw.biosVersion()).isEqualTo("1.10.2");
    assertThat(hw.cpu()).isEqualTo(new NodeHardware.Cpu("Simulated CPU 32-Core", 2));
    assertThat(hw.memoryMiB()).isEqualTo(256L * 1024);
    assertThat(hw.gpus()).containsExactly(new NodeHardware.Gpu("NVIDIA A100-PCIE-40GB", 2));
    // two NICs; the host interface's NIC (a third) is left out
    assertThat(hw.macs()).hasSize(2).doesNotHaveDuplicates();
    assertThat(mismatch(site.node(id)).status()).isEqualTo("False");

    // settled: further syncs write nothing
    long settled = site.node(id).statusRevision();
    Thread.sleep(600); // six syncs at 100 ms
    assertThat(site.node(id).statusRevision()).as("no rewrite per sync").isEqualTo(settled);

    // a request written while no controller runs is carried out by the next one
    first.close();
    Node before = site.node(id);
    site.inventory.putStatus(
        id,
        before.statusRevision(),
        before.status().toBuilder().inspectRequestedAt(Instant.now()).build(),
        null,
        null);
    site.controller("b", fastSync, TestSite.drivers(d -> d));
    await()
        .atMost(WAIT)
        .until(
            () -> {
              NodeHardware now = site.node(id).status().hardware();
              return !now.inspectedAt().equals(hw.inspectedAt());
            });
    Node after = site.node(id);
    assertThat(after.status().inspectRequestedAt()).as("the request is cleared").isNull();
    assertThat(after.status().hardware().sameFacts(hw)).isTrue();

    // the DCIM says another serial: shown, never overwritten
    site.update(id, s -> s.toBuilder().serial("DCIM-7").build());
    await().atMost(WAIT).until(() -> mismatch(site.node(id)).isTrue());
    Node flagged = site.node(id);
    assertThat(mismatch(flagged).message())
        .isEqualTo("serial differs from DCIM: inventory DCIM-7, BMC " + serial);
    assertThat(flagged.spec().serial()).isEqualTo("DCIM-7");
    assertThat(flagged.status().hardware().serial()).isEqualTo(serial);
  }

  private static NodeCondition mismatch(Node node) {
    return node.status().conditions().stream()
        .filter(c -> c.type().equals(NodeCondition.HARDWARE_MISMATCH))
        .findFirst()
        .orElseThrow();
  }
}
