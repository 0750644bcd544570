package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Resuming a watch from before the hub's memory (a restarted API): the older changes come from the
 * watch history, then the new hub takes over, with the same ids the old API sent; 410 once etcd has
 * compacted the revision or when more changes happened than the hub would hold.
 */
class WatchResumeIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static List<WatchIT.Sse> take(WatchIT.Stream s, int n) throws InterruptedException {
    List<WatchIT.Sse> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      events.add(s.next());
    }
    return events;
  }

  private static List<String> ids(List<WatchIT.Sse> events) {
    return events.stream().map(WatchIT.Sse::id).toList();
  }

  @Test
  void aRestartedApiReplaysOlderChangesThenLiveOnesAnd410sOnceEtcdCompactedThem() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      long start = f.cache.revision();
      List<WatchIT.Sse> before;
      try (WatchIT.Stream s = new WatchIT.Stream(f, "?since=" + start, Map.of())) {
        for (int i = 0; i < 3; i++) {
          f.json("PUT", "/api/v1/nodes/" + Json.id(i), Json.of(Json.spec(i, "a")));
        }
        f.json("PATCH", "/api/v1/nodes/n001", "{\"rack\":\"r7\"}");
        // Three nodes added, pool a added then modified twice, n001 modified.
        before = take(s, 7);
      }

      // The production history: etcd's, replayed by the cache (InventoryCache.history).
      f.restartApi(ApiOptions.DEFAULTS, f.cache::history);
      // The new hub starts after all of those: etcd's history serves them, then the hub.
      try (WatchIT.Stream resumed = new WatchIT.Stream(f, "?since=" + start, Map.of())) {
        assertThat(resumed.status).isEqualTo(200);
        List<WatchIT.Sse> replayed = take(resumed, 7);
        assertThat(ids(replayed)).isEqualTo(ids(before));
        assertThat(replayed)
            .extracting(e -> e.data().toString())
            .isEqualTo(before.stream().map(e -> e.data().toString()).toList());
        f.json("PATCH", "/api/v1/nodes/n002", "{\"rack\":\"r9\"}");
        WatchIT.Sse live = resumed.next();
        assertThat(live.data().at("/node/spec/rack").asText()).isEqualTo("r9");
        assertThat(live.data().get("revision").asLong())
            .isGreaterThan(before.get(6).data().get("revision").asLong());
      }
      // Resuming from an event id inside a revision continues after exactly that event.
      try (WatchIT.Stream mid =
          new WatchIT.Stream(f, "", Map.of("Last-Event-ID", before.get(0).id()))) {
        assertThat(mid.next().id()).isEqualTo(before.get(1).id());
      }

      ETCD.cluster().compact(f.revision());
      try (WatchIT.Stream gone = new WatchIT.Stream(f, "?since=" + start, Map.of())) {
        assertThat(gone.status).isEqualTo(410);
      }
      // What the new hub holds still resumes.
      try (WatchIT.Stream recent =
          new WatchIT.Stream(f, "?since=" + (f.cache.revision() - 1), Map.of())) {
        assertThat(recent.status).isEqualTo(200);
      }
    }
  }

  @Test
  void moreChangesThanTheHubHoldsIs410() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      long start = f.cache.revision();
      for (int i = 0; i < 6; i++) {
        f.json("PUT", "/api/v1/nodes/" + Json.id(i), Json.of(Json.spec(i, null)));
      }
      f.restartApi(ApiOptions.DEFAULTS.withWatchHistory(5), f.cache::history);
      try (WatchIT.Stream far = new WatchIT.Stream(f, "?since=" + start, Map.of())) {
        assertThat(far.status).isEqualTo(410);
      }
      try (WatchIT.Stream near =
          new WatchIT.Stream(f, "?since=" + (f.cache.revision() - 2), Map.of())) {
        assertThat(near.status).isEqualTo(200);
        assertThat(take(near, 2)).hasSize(2);
      }
    }
  }
}
