package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.nodes.CacheSnapshot;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.BatchResult;
import io.bamel.inventory.store.NodePage;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The first page of a listing shows exactly the inventory at the revision it names, while other
 * writers change specs, statuses and pool memberships: each listing is compared with etcd read at
 * that revision. (Deletions and readings-only changes are not written here: see {@link
 * CacheSnapshot} for why a walk of the cache cannot detect them.)
 */
class ListingSnapshotIT {

  @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode();

  private static final int NODES = 300;

  /** What a listing item shows of a node's versions: id, spec revision, status revision. */
  record Version(String id, long spec, long status) {}

  @Test
  void everyFirstPageIsTheInventoryAtItsRevisionWhileWritersChangeIt() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      List<BatchItem> items = new ArrayList<>();
      for (int i = 0; i < NODES; i++) {
        items.add(
            BatchItem.upsert(
                Json.id(i),
                Json.spec(i, i % 2 == 0 ? "a" : "b"),
                NodeEvent.of(Instant.parse("2026-01-01T00:00:00Z"), "created", null)));
      }
      long loaded =
          f.store.upsertAll(items).stream().mapToLong(BatchResult::revision).max().orElseThrow();
      assertThat(f.cache.awaitRevision(loaded, Duration.ofSeconds(10))).isTrue();

      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService writers = Executors.newFixedThreadPool(2);
      List<Future<Integer>> done = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int writer = w;
        done.add(
            writers.submit(
                () -> {
                  int writes = 0;
                  while (!stop.get()) {
                    String id = Json.id((writes * 7 + writer * 13) % NODES);
                    if (writer == 0) {
                      int n = writes;
                      StoreEdits.updateSpec(
                          f.store,
                          id,
                          s -> s.toBuilder().pool(n % 3 == 0 ? "b" : "a").rack("w" + n).build(),
                          null);
                    } else {
                      int n = writes;
                      StoreEdits.updateStatus(
                          f.store,
                          id,
                          s ->
                              NodeStatus.builder()
                                  .state(NodeState.READY)
                                  .observedPower(ObservedPower.ON)
                                  .errorCount(n)
                                  .build(),
                          null,
                          null);
                    }
                    writes++;
                  }
                  return writes;
                }));
      }
      int compared = 0;
      try {
        long deadline = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        while (System.nanoTime() < deadline || compared < 20) {
          String query = compared % 2 == 0 ? "?limit=10000" : "?pool=a&limit=10000";
          JsonNode page = f.get("/api/v1/nodes" + query, ApiFixture.READ).json();
          long revision = page.get("revision").asLong();
          List<Version> shown = new ArrayList<>();
          for (JsonNode item : page.get("items")) {
            shown.add(
                new Version(
                    item.get("id").asText(),
                    item.get("revision").asLong(),
                    item.path("statusRevision").asLong(0)));
          }
          assertThat(shown)
              .as("listing %s at revision %d", query, revision)
              .containsExactlyElementsOf(atRevision(f, revision, query.contains("pool=a")));
          compared++;
        }
      } finally {
        stop.set(true);
        writers.shutdown();
      }
      int writes = 0;
      for (Future<Integer> d : done) {
        writes += d.get();
      }
      assertThat(writes).as("writes during the listings").isGreaterThan(20);
      assertThat(compared).isGreaterThanOrEqualTo(20);
    }
  }

  /** The nodes etcd holds at {@code revision} (optionally only pool a's), as listing versions. */
  private static List<Version> atRevision(ApiFixture f, long revision, boolean poolA) {
    List<Version> versions = new ArrayList<>();
    String after = null;
    while (true) {
      NodePage page = f.store.listNodes(after, 500, revision);
      for (Node n : page.items()) {
        if (!poolA || "a".equals(n.spec().pool())) {
          versions.add(new Version(n.id(), n.specRevision(), n.statusRevision()));
        }
      }
      if (page.next() == null) {
        return versions;
      }
      after = page.next();
    }
  }
}
