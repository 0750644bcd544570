package io.bamel.inventory.api.watch;

import static io.bamel.inventory.api.QueryText.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.NodeChange;
import io.bamel.inventory.store.PoolChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WatchFilterTest {

  private static Node node(String pool, long specRevision, long statusRevision, Double watts) {
    return new Node(
        "n1",
        NodeSpec.builder().pool(pool).build(),
        specRevision,
        null,
        statusRevision,
        watts == null ? null : new NodeReadings(null, watts, null, null));
  }

  private static final Map<String, InventoryChange> CHANGES =
      Map.of(
          "added-gpu", new NodeChange("n1", null, node("gpu", 5, 0, null), 5),
          "moved-gpu-to-cpu",
              new NodeChange("n1", node("gpu", 5, 0, null), node("cpu", 6, 0, null), 6),
          "readings-gpu",
              new NodeChange("n1", node("gpu", 5, 7, 100.0), node("gpu", 5, 7, 120.0), 8),
          "status-gpu", new NodeChange("n1", node("gpu", 5, 7, null), node("gpu", 5, 9, null), 9),
          "deleted-cpu", new NodeChange("n1", node("cpu", 6, 0, null), null, 10),
          "no-pool", new NodeChange("n1", null, node(null, 11, 0, null), 11),
          "pool-gpu", new PoolChange("gpu", null, new Pool("gpu", null, 0, null, 0, Set.of()), 12));

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''                      | added-gpu moved-gpu-to-cpu readings-gpu status-gpu deleted-cpu no-pool pool-gpu",
        "kind=node               | added-gpu moved-gpu-to-cpu readings-gpu status-gpu deleted-cpu no-pool",
        "kind=pool               | pool-gpu",
        "kind=node,pool          | added-gpu moved-gpu-to-cpu readings-gpu status-gpu deleted-cpu no-pool pool-gpu",
        "pool=gpu                | added-gpu moved-gpu-to-cpu readings-gpu status-gpu pool-gpu",
        "pool=cpu                | moved-gpu-to-cpu deleted-cpu",
        "pool=cpu&pool=gpu&kind=node | added-gpu moved-gpu-to-cpu readings-gpu status-gpu deleted-cpu",
        "skipReadings=true       | added-gpu moved-gpu-to-cpu status-gpu deleted-cpu no-pool pool-gpu",
        "skipReadings=false      | added-gpu moved-gpu-to-cpu readings-gpu status-gpu deleted-cpu no-pool pool-gpu",
        "pool=gpu&skipReadings=true&kind=node | added-gpu moved-gpu-to-cpu status-gpu",
      })
  void selectsTheChanges(String query, String expected) {
    WatchFilter filter = WatchFilter.parse(values(query));
    List<String> seen = new ArrayList<>();
    for (String name :
        List.of(
            "added-gpu",
            "moved-gpu-to-cpu",
            "readings-gpu",
            "status-gpu",
            "deleted-cpu",
            "no-pool",
            "pool-gpu")) {
      if (filter.test(CHANGES.get(name))) {
        seen.add(name);
      }
    }
    assertThat(String.join(" ", seen)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "kind=nodes          | kind",
        "kind=node,          | kind",
        "pool=Bad_Name       | pool",
        "skipReadings=yes    | skipReadings",
        "skipReadings=true&skipReadings=true | skipReadings",
      })
  void rejectsNamingTheParameter(String query, String field) {
    assertThatThrownBy(() -> WatchFilter.parse(values(query)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.problem().status()).isEqualTo(400);
              assertThat(e.problem().errors()).extracting(f -> f.field()).contains(field);
            });
  }

  @Test
  void theHubQueuesOnlyWhatASubscriptionWants() throws Exception {
    WatchHub hub = new WatchHub(100);
    hub.start(0);
    WatchHub.Subscription all = hub.subscribe(0, Integer.MAX_VALUE, WatchFilter.ALL);
    WatchHub.Subscription quiet =
        hub.subscribe(
            0, Integer.MAX_VALUE, WatchFilter.parse(values("skipReadings=true&pool=gpu")));
    for (String name : List.of("added-gpu", "readings-gpu", "status-gpu", "deleted-cpu")) {
      hub.onChange(CHANGES.get(name));
    }
    assertThat(all.queue).hasSize(4);
    assertThat(quiet.queue).hasSize(2);
    // A late subscriber gets the held backlog through the same filter.
    WatchHub.Subscription late =
        hub.subscribe(0, Integer.MAX_VALUE, WatchFilter.parse(values("pool=cpu")));
    assertThat(late.queue).hasSize(1);
    hub.close();
  }
}
