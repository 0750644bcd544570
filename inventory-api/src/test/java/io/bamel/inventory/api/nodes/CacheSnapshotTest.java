package io.bamel.inventory.api.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.TestNodes;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.pcollections.TreePSet;

/**
 * A first listing page reads O(limit) ids and nodes, however large the pool and the fleet: counted
 * here, not timed.
 */
class CacheSnapshotTest {

  private static final Fleet SMALL = Fleet.of(5_000);
  private static final Fleet LARGE = Fleet.of(50_000);

  /** A fleet of {@code nodes} in four pools: each node by id, and pool-1's member ids in order. */
  private record Fleet(Map<String, Node> nodes, TreePSet<String> pool1, TreePSet<String> all) {
    static Fleet of(int nodes) {
      Map<String, Node> byId = new HashMap<>();
      TreePSet<String> pool1 = TreePSet.empty();
      TreePSet<String> all = TreePSet.empty();
      NodeSpec[] specs = new NodeSpec[4];
      for (int p = 0; p < 4; p++) {
        specs[p] = NodeSpec.builder().pool("pool-" + p).build();
      }
      for (int i = 0; i < nodes; i++) {
        String id = TestNodes.id(i);
        byId.put(id, new Node(id, specs[i % 4], 2, null, 0, null));
        all = all.plus(id);
        if (i % 4 == 1) {
          pool1 = pool1.plus(id);
        }
      }
      return new Fleet(byId, pool1, all);
    }
  }

  /** What one walk read: ids taken from the ordered set, and nodes looked up. */
  private static final class Reads {
    int ids;
    int nodes;

    Iterable<String> count(Iterable<String> ids) {
      return () -> {
        Iterator<String> it = ids.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public String next() {
            Reads.this.ids++;
            return it.next();
          }
        };
      };
    }

    Function<String, Node> count(Map<String, Node> nodes) {
      return id -> {
        this.nodes++;
        return nodes.get(id);
      };
    }
  }

  private static Reads walk(Fleet fleet, Iterable<String> ids, NodeFilter filter, int limit) {
    Reads reads = new Reads();
    List<Node> page =
        CacheSnapshot.walkInOrder(
            reads.count(ids), reads.count(fleet.nodes()), filter, 10, limit + 1);
    assertThat(page).hasSize(limit + 1);
    assertThat(page.get(0).id()).isEqualTo(TestNodes.id(filter.pools().isEmpty() ? 0 : 1));
    return reads;
  }

  @Test
  void aPoolsFirstPageReadsLimitPlusOneMembersAtAnyPoolSize() {
    NodeFilter pool1 = NodeFilter.parse(Map.of("pool", "pool-1"));
    Fleet small = SMALL;
    Fleet large = LARGE;

    Reads onSmall = walk(small, small.pool1(), pool1, 500);
    Reads onLarge = walk(large, large.pool1(), pool1, 500);

    assertThat(onLarge.ids).isEqualTo(onSmall.ids).isEqualTo(501);
    assertThat(onLarge.nodes).isEqualTo(onSmall.nodes).isEqualTo(501);
  }

  @Test
  void aFleetsFirstPageReadsLimitPlusOneNodesAtAnyFleetSize() {
    NodeFilter any = NodeFilter.parse(Map.of());
    Fleet small = SMALL;
    Fleet large = LARGE;

    assertThat(walk(large, large.all(), any, 500).nodes)
        .isEqualTo(walk(small, small.all(), any, 500).nodes)
        .isEqualTo(501);
  }
}
