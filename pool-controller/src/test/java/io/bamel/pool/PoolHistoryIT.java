package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.model.ResourceCapacity;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.testing.Etcdctl;
import io.bamel.pool.history.HistoryJson;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.threeten.extra.MutableClock;

/**
 * The demand history kept in etcd by the pool controller, against real etcd and the fabric8 mock
 * API server, on a fake clock with cycles run by hand every 15 s of it. What was stored is read
 * back with the real {@code etcdctl} and parsed as plain JSON, not through bamel's reader.
 */
class PoolHistoryIT extends PoolSiteTests {

  private static final Duration CYCLE = Duration.ofSeconds(15);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Pool {@code web}: two ready 32-core nodes running pods that request 3 and 5 cores. */
  private void webPool() {
    store.putPoolConfig("web", PoolConfig.builder().minNodes(2).build(), 0);
    for (String id : List.of("w1", "w2")) {
      store.createNode(
          id,
          NodeSpec.builder()
              .pool("web")
              .powerInterface(PowerInterface.of("redfish"))
              .mgmtAddress("https://" + id + ".bmc.test")
              .bmcCredentials("bmc")
              .resources(ResourceCapacity.of("32", "128Gi", null))
              .desiredPower(DesiredPower.ON)
              .build(),
          null);
      store.putStatus(
          id,
          0,
          NodeStatus.builder()
              .state(NodeState.READY)
              .stateSince(T0.minusSeconds(3600))
              .observedPower(ObservedPower.ON)
              .build(),
          null,
          null);
      kube.nodes().resource(KubeMock.node(id, true, "cpu", 32, "memory", "128Gi")).create();
    }
    kube.pods().resource(KubeMock.running("a", "w1", "cpu", 3)).create();
    kube.pods().resource(KubeMock.running("b", "w2", "cpu", 5)).create();
  }

  private Controllers controllers(String identity) throws InterruptedException {
    Controllers c = new Controllers(client, identity, cluster, clock, b -> {});
    assertThat(c.cache.awaitSynced(Duration.ofSeconds(10))).isTrue();
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .until(
            () ->
                cluster.synced()
                    && cluster.pods().size()
                        == kube.pods().inAnyNamespace().list().getItems().size()
                    && cluster.nodes().size() == kube.nodes().list().getItems().size());
    return c;
  }

  /** Runs a cycle at the clock's time, then one every 15 s of it until {@code until} (excluded). */
  private static void cyclesUntil(Controllers c, MutableClock clock, Instant until) {
    while (clock.instant().isBefore(until)) {
      List<PoolController.AppliedPlan> outcomes = c.controller.runCycle();
      assertThat(outcomes).isNotEmpty().noneMatch(PoolController.AppliedPlan::fenced);
      clock.add(CYCLE);
    }
  }

  /** Runs exactly one cycle now. */
  private static void cycle(Controllers c) {
    assertThat(c.controller.runCycle()).isNotEmpty().noneMatch(PoolController.AppliedPlan::fenced);
  }

  /** {@code key} as the real etcdctl reads it, or null when it is not there. */
  private static Etcdctl.Kv etcdctlGet(String key) throws Exception {
    List<Etcdctl.Kv> kvs = Etcdctl.get(ETCD.cluster(), key);
    return kvs.isEmpty() ? null : kvs.get(0);
  }

  private static long epochHour(Instant t) {
    return t.getEpochSecond() / 3600;
  }

  @Test
  void anHourOfCyclesIsWrittenOnceWhenItClosesAndReadsBackWithEtcdctl() throws Exception {
    webPool();
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      cyclesUntil(a, clock, T0.plus(Duration.ofHours(1)));
      assertThat(etcdctlGet("/baremetal/pools/web/history"))
          .as("240 cycles within the first hour: nothing learned, nothing written")
          .isNull();

      cycle(a); // 13:00:00: the 12:00 hour closes
      Etcdctl.Kv first = etcdctlGet("/baremetal/pools/web/history");
      assertThat(first).isNotNull();
      assertThat(first.version()).isEqualTo(1);
      JsonNode h = JSON.readTree(first.value());
      assertThat(h.path("version").asInt()).isEqualTo(1);
      assertThat(h.path("openHour").asText()).isEqualTo("2026-06-01T13:00:00Z");
      assertThat(h.path("openPeak").path("cpu").asDouble()).isEqualTo(8);
      JsonNode learned = h.path("learnedAtHour");
      assertThat(learned).hasSize(168);
      assertThat(learned.get(12).asLong()).isEqualTo(epochHour(T0));
      for (int i = 0; i < 168; i++) {
        if (i != 12) {
          assertThat(learned.get(i).asLong()).as("bucket %d", i).isZero();
        }
      }
      assertThat(h.path("peaks").path("cpu").get(12).asDouble()).isEqualTo(8);
      assertThat(h.path("peaks").path("cpu")).hasSize(168);

      // Two more hours, a pod more in the second: one write per closed hour, none in between.
      clock.add(CYCLE);
      cyclesUntil(a, clock, T0.plus(Duration.ofMinutes(119)));
      assertThat(etcdctlGet("/baremetal/pools/web/history").modRevision())
          .as("no write within an open hour")
          .isEqualTo(first.modRevision());
      cyclesUntil(a, clock, T0.plus(Duration.ofHours(2)));
      kube.pods().resource(KubeMock.running("c", "w1", "cpu", 4)).create();
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> cluster.pods().size() == 3);
      cyclesUntil(a, clock, T0.plus(Duration.ofHours(3)).plus(CYCLE));
      Etcdctl.Kv third = etcdctlGet("/baremetal/pools/web/history");
      assertThat(third.version()).as("three closed hours, three writes").isEqualTo(3);
      JsonNode after = JSON.readTree(third.value());
      assertThat(after.path("peaks").path("cpu").get(12).asDouble()).isEqualTo(8);
      assertThat(after.path("peaks").path("cpu").get(13).asDouble()).isEqualTo(8);
      assertThat(after.path("peaks").path("cpu").get(14).asDouble()).isEqualTo(12);
      assertThat(after.path("learnedAtHour").get(14).asLong()).isEqualTo(epochHour(T0) + 2);
      // What etcdctl read is a history bamel's reader takes, predicting next Monday's 14:00.
      assertThat(
              HistoryJson.read(third.value().getBytes(StandardCharsets.UTF_8))
                  .expectedPeak(T0.plus(Duration.ofDays(7)).plusSeconds(7200), Duration.ZERO)
                  .get("cpu"))
          .isEqualTo(12);
    }
  }

  @Test
  void aNewLeaderContinuesTheStoredHistory() throws Exception {
    webPool();
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      // b starts only once a leads: started together, either could win the first campaign.
      Controllers b = controllers("b");
      detach.add(b::close);
      a.sync();
      cyclesUntil(a, clock, T0.plus(Duration.ofHours(2)).plus(CYCLE)); // 12:00 and 13:00 learned
      assertThat(etcdctlGet("/baremetal/pools/web/history").version()).isEqualTo(2);
      assertThat(b.controller.runCycle()).as("the standby does nothing").isEmpty();

      a.election.close();
      assertThat(b.election.awaitLeadership(Duration.ofSeconds(30))).isTrue();
      b.sync();
      cyclesUntil(b, clock, T0.plus(Duration.ofHours(3)).plus(CYCLE)); // b closes 14:00
      Etcdctl.Kv s = etcdctlGet("/baremetal/pools/web/history");
      assertThat(s.version()).as("b wrote once, when its first hour closed").isEqualTo(3);
      JsonNode learned = JSON.readTree(s.value()).path("learnedAtHour");
      assertThat(learned.get(12).asLong()).as("learned by a").isEqualTo(epochHour(T0));
      assertThat(learned.get(13).asLong()).as("learned by a").isEqualTo(epochHour(T0) + 1);
      assertThat(learned.get(14).asLong()).as("learned by b").isEqualTo(epochHour(T0) + 2);
    }
  }

  @Test
  void anUnreadableStoredHistoryIsLoggedOnceAndReplaced() throws Exception {
    webPool();
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    Logger logger = (Logger) LoggerFactory.getLogger(PoolHistories.class);
    logger.addAppender(logged);
    detach.add(() -> logger.detachAppender(logged));
    // Written by hand: a version this bamel does not read.
    client
        .getKVClient()
        .put(
            io.etcd.jetcd.ByteSequence.from(Keys.poolHistory("web"), StandardCharsets.UTF_8),
            io.etcd.jetcd.ByteSequence.from("{\"version\":7}", StandardCharsets.UTF_8))
        .get(10, TimeUnit.SECONDS);
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      cyclesUntil(a, clock, T0.plus(Duration.ofMinutes(2)));
      List<String> warnings =
          logged.list.stream()
              .filter(e -> e.getLevel() == Level.WARN)
              .map(ILoggingEvent::getFormattedMessage)
              .toList();
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0))
          .contains("pool web")
          .contains("version 7 is not supported")
          .doesNotContain("{\"version\"");
      Etcdctl.Kv s = etcdctlGet("/baremetal/pools/web/history");
      JsonNode h = JSON.readTree(s.value());
      assertThat(h.path("version").asInt()).isEqualTo(1);
      assertThat(h.path("openHour").asText()).isEqualTo("2026-06-01T12:00:00Z");
      assertThat(s.version()).as("replaced once, at the first cycle").isEqualTo(2);
      // The decisions went on: the pool status is written.
      assertThat(store.getPool("web").orElseThrow().status()).isNotNull();
    }
  }

  @Test
  void deletingAPoolDeletesItsHistory() throws Exception {
    // A pool without members (a pool can only be deleted once it has none).
    store.putPoolConfig("idle", PoolConfig.builder().build(), 0);
    webPool();
    try (Controllers a = controllers("a")) {
      assertThat(a.election.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      a.sync();
      cyclesUntil(a, clock, T0.plus(Duration.ofHours(1)).plus(CYCLE));
      assertThat(etcdctlGet("/baremetal/pools/idle/history")).isNotNull();
      assertThat(etcdctlGet("/baremetal/pools/web/history")).isNotNull();
      // The cache and the pools listed are as before: the history key is no pool of its own.
      assertThat(a.cache.pools())
          .extracting(p -> p.name())
          .containsExactlyInAnyOrder("idle", "web");

      assertThat(store.deletePool("idle", EtcdInventory.ANY_REVISION)).isTrue();
      assertThat(etcdctlGet("/baremetal/pools/idle/history")).isNull();
      a.sync();
      cyclesUntil(a, clock, T0.plus(Duration.ofHours(2)).plus(CYCLE));
      assertThat(etcdctlGet("/baremetal/pools/idle/history"))
          .as("not written again for a pool deleted")
          .isNull();
      assertThat(etcdctlGet("/baremetal/pools/web/history").version()).isEqualTo(2);
    }
  }
}
