package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeState;
import io.bamel.power.PowerOperation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sync pass reads each node's BMC once, as many at once as {@code bmcConcurrency} allows (the
 * workers are virtual threads, so the semaphore is the bound), and the power draw only when due.
 */
class BmcPassIT extends TestSiteTests {

  static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void aPassReadsEveryBmcOnceWithTheConfiguredConcurrency() throws Exception {
    openSite();
    int nodes = 96;
    int concurrency = 16;
    Duration latency = Duration.ofMillis(200);
    List<String> ids = site.addNodes(nodes, "batch", DesiredPower.OFF);
    CountingDriver calls =
        site.counted(
                "a",
                TestSite.CONFIG
                    .withConcurrency(NodeControllerConfig.DEFAULTS.workers(), concurrency)
                    .withIntervals(Duration.ofSeconds(4), Duration.ofMillis(100)))
            .driver();
    site.awaitState(ids, NodeState.OFF, WAIT);
    ids.forEach(id -> site.fleet.system(id).faults().latency(latency));
    int before = reads(calls, ids);
    await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> reads(calls, ids) > before);
    long start = System.nanoTime();
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(5))
        .until(() -> reads(calls, ids) >= before + nodes);
    Duration pass = Duration.ofNanos(System.nanoTime() - start).plus(latency);
    Duration ideal = latency.multipliedBy(nodes).dividedBy(concurrency);

    assertThat(reads(calls, ids)).as("one read per node").isLessThan(before + 2 * nodes);
    assertThat(calls.peakInFlight()).as("BMC calls at once").isEqualTo(concurrency);
    System.out.printf(
        "BMC pass: %d nodes at %d ms, %d at once: %d ms (ideal %d ms, %.2fx)%n",
        nodes,
        latency.toMillis(),
        concurrency,
        pass.toMillis(),
        ideal.toMillis(),
        pass.toNanos() / (double) ideal.toNanos());
    assertThat(pass).as("about nodes x latency / concurrency").isLessThan(ideal.multipliedBy(3));
  }

  @Test
  void thePowerDrawIsReadOnlyWhenDue() throws Exception {
    openSite();
    List<String> ids = site.addNodes(4, "batch", DesiredPower.ON);
    OffsetClock clock = new OffsetClock();
    CountingDriver calls =
        site.counted(
                "a",
                TestSite.CONFIG.withIntervals(Duration.ofMillis(100), Duration.ofMillis(100)),
                clock)
            .driver();
    site.awaitState(ids, NodeState.READY, WAIT);
    await().atMost(WAIT).until(() -> draws(calls, ids) == ids.size());
    int reads = reads(calls, ids);
    await().atMost(WAIT).until(() -> reads(calls, ids) >= reads + 10 * ids.size());
    assertThat(draws(calls, ids)).as("not due yet: one draw read each").isEqualTo(ids.size());

    clock.advance(NodeControllerConfig.DEFAULTS.readingsInterval());
    await().atMost(WAIT).until(() -> draws(calls, ids) == 2 * ids.size());
    int later = reads(calls, ids);
    await().atMost(WAIT).until(() -> reads(calls, ids) >= later + 10 * ids.size());
    assertThat(draws(calls, ids)).isEqualTo(2 * ids.size());
  }

  int reads(CountingDriver driver, List<String> ids) {
    return ids.stream().mapToInt(id -> driver.calls(site.address(id), PowerOperation.STATUS)).sum();
  }

  int draws(CountingDriver driver, List<String> ids) {
    return ids.stream()
        .mapToInt(id -> driver.calls(site.address(id), PowerOperation.POWER_DRAW))
        .sum();
  }
}
