package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.store.Keys;
import io.bamel.power.PowerOperation;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Power readings reach etcd only when the {@link ReadingsPolicy} says so: an unchanged reading is
 * written once, then again only when the stored one is older than the heartbeat.
 */
class ReadingsIT extends TestSiteTests {

  static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void anUnchangedReadingPolledManyTimesIsWrittenOnceThenAtTheHeartbeat() throws Exception {
    openSite();
    String id = site.addNodes(1, "batch", DesiredPower.ON).get(0);
    OffsetClock clock = new OffsetClock();
    TestSite.Wrapped<CountingDriver> counted =
        site.counted(
            "a",
            TestSite.CONFIG
                .withIntervals(Duration.ofMillis(100), Duration.ofMillis(100))
                .withReadingsPolicy(ReadingsPolicy.DEFAULTS)
                .withReadingsInterval(Duration.ZERO),
            clock);
    ControllerInstance c = counted.controller();
    CountingDriver calls = counted.driver();
    site.awaitState(List.of(id), NodeState.READY, WAIT);
    await().atMost(WAIT).until(() -> readingsKey(id) != null);
    // The first contact's hardware inspection is written with the status, maybe after READY.
    await().atMost(WAIT).until(() -> site.node(id).status().hardware() != null);
    Instant firstReadAt = site.node(id).readings().readAt();
    int draws = calls.calls(site.address(id), PowerOperation.POWER_DRAW);
    long txns = EtcdRequests.handled(ETCD.cluster().endpoints().get(0), "Txn");

    // many polls of the same draw, a minute of the controller's time apart
    await()
        .atMost(WAIT)
        .until(
            () -> {
              clock.advance(Duration.ofMinutes(1));
              return calls.calls(site.address(id), PowerOperation.POWER_DRAW) >= draws + 20;
            });
    // (site.node reads through a transaction: counted before it)
    assertThat(EtcdRequests.handled(ETCD.cluster().endpoints().get(0), "Txn") - txns)
        .as("no write of any kind")
        .isZero();
    assertThat(readingsKey(id).getVersion()).as("written once").isOne();
    assertThat(site.node(id).readings().readAt()).isEqualTo(firstReadAt);
    assertThat(c.metric("bamel_node_power_watts", "node", id))
        .isEqualTo(site.node(id).readings().powerWatts());

    // older than the heartbeat: written again, once
    clock.advance(ReadingsPolicy.DEFAULTS.heartbeat());
    await().atMost(WAIT).until(() -> readingsKey(id).getVersion() == 2);
    int now = calls.calls(site.address(id), PowerOperation.POWER_DRAW);
    await()
        .atMost(WAIT)
        .until(() -> calls.calls(site.address(id), PowerOperation.POWER_DRAW) >= now + 10);
    assertThat(readingsKey(id).getVersion()).isEqualTo(2);
    assertThat(site.node(id).readings().readAt()).isAfter(firstReadAt.plus(Duration.ofHours(1)));
  }

  @Test
  void everyReadingIsWrittenWhenThePolicySaysSo() throws Exception {
    openSite();
    String id = site.addNodes(1, "batch", DesiredPower.ON).get(0);
    CountingDriver calls =
        site.counted(
                "a",
                TestSite.CONFIG
                    .withIntervals(Duration.ofMillis(100), Duration.ofMillis(100))
                    .withReadingsPolicy(ReadingsPolicy.EVERY_READING)
                    .withReadingsInterval(Duration.ZERO))
            .driver();
    site.awaitState(List.of(id), NodeState.READY, WAIT);
    await().atMost(WAIT).until(() -> readingsKey(id) != null && readingsKey(id).getVersion() >= 5);
    assertThat(readingsKey(id).getVersion())
        .isLessThanOrEqualTo(calls.calls(site.address(id), PowerOperation.POWER_DRAW));
  }

  /** The readings key of node {@code id}, or null. */
  KeyValue readingsKey(String id) throws Exception {
    List<KeyValue> kvs =
        site.client
            .getKVClient()
            .get(ByteSequence.from(Keys.nodeReadings(id), StandardCharsets.UTF_8))
            .get(5, TimeUnit.SECONDS)
            .getKvs();
    return kvs.isEmpty() ? null : kvs.get(0);
  }
}
