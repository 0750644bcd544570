package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeState;
import io.bamel.power.PowerOperation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A settled fleet costs etcd nothing: the controller reconciles from the cache's copy, so a sync
 * pass that changes nothing sends no request to etcd (the election's own key check aside).
 */
class SteadyStateIT extends TestSiteTests {

  @Test
  void syncPassesOverASettledFleetReadAndWriteNothingInEtcd() throws Exception {
    openSite();
    List<String> ids = site.addNodes(10, "batch", DesiredPower.OFF);
    CountingDriver calls =
        site.counted(
                "a", TestSite.CONFIG.withIntervals(Duration.ofMillis(200), Duration.ofMillis(100)))
            .driver();
    site.awaitState(ids, NodeState.OFF, WAIT);
    Thread.sleep(500); // the last writes of the settling reach the cache
    String member = ETCD.cluster().endpoints().get(0);
    long ranges = EtcdRequests.handled(member, "Range");
    long txns = EtcdRequests.handled(member, "Txn");
    int reads = statusReads(calls, ids);

    Thread.sleep(3_000);

    int passes = (statusReads(calls, ids) - reads) / ids.size();
    assertThat(passes).as("sync passes over every node").isGreaterThanOrEqualTo(5);
    assertThat(EtcdRequests.handled(member, "Txn") - txns)
        .as("no transaction: no node read, no status written")
        .isZero();
    // the election checks its key every 300 ms (about 10 in 3 s); a read per reconciliation
    // would be at least 10 nodes x 5 passes
    assertThat(EtcdRequests.handled(member, "Range") - ranges)
        .as("ranges: the election's key checks only")
        .isLessThan(25);
  }

  int statusReads(CountingDriver driver, List<String> ids) {
    return ids.stream().mapToInt(id -> driver.calls(site.address(id), PowerOperation.STATUS)).sum();
  }
}
