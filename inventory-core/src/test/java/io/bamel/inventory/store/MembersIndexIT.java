package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pool-membership index always matches spec.pool, whatever the sequence of changes. */
class MembersIndexIT {

  @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode();

  @Test
  void indexMatchesSpecPoolAfterAThousandRandomOperations() throws Exception {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      Random random = new Random(42);
      String[] pools = {"general", "gpu", "storage", null};
      Map<String, String> expected = new HashMap<>();
      for (int op = 0; op < 1_000; op++) {
        String id = TestNodes.id(random.nextInt(150));
        String pool = pools[random.nextInt(pools.length)];
        int kind = random.nextInt(10);
        if (!expected.containsKey(id)) {
          inventory.createNode(id, TestNodes.spec(op, pool).toBuilder().pool(pool).build(), null);
          expected.put(id, pool);
        } else if (kind < 6) {
          StoreEdits.updateSpec(inventory, id, s -> s.toBuilder().pool(pool).build(), null);
          expected.put(id, pool);
        } else if (kind < 8) {
          List<BatchResult> results =
              inventory.upsertAll(
                  List.of(
                      BatchItem.upsert(
                          id, TestNodes.spec(op, pool).toBuilder().pool(pool).build(), null)));
          assertThat(results.get(0).outcome())
              .isIn(BatchResult.Outcome.UPDATED, BatchResult.Outcome.UNCHANGED);
          expected.put(id, pool);
        } else {
          inventory.deleteNode(id, EtcdInventory.ANY_REVISION);
          expected.remove(id);
        }
      }

      Map<String, String> fromSpecs = new TreeMap<>();
      Map<String, String> fromIndex = new TreeMap<>();
      for (KeyValue kv : all(client, Keys.NODES)) {
        KeyRef ref = Keys.parse(kv.getKey().toString(StandardCharsets.UTF_8));
        if (ref.kind() == KeyRef.Kind.NODE_SPEC) {
          String pool =
              Codec.decode(kv.getValue().getBytes(), io.bamel.inventory.model.NodeSpec.class)
                  .pool();
          if (pool != null) {
            fromSpecs.put(ref.id(), pool);
          }
        }
      }
      for (KeyValue kv : all(client, Keys.POOLS)) {
        KeyRef ref = Keys.parse(kv.getKey().toString(StandardCharsets.UTF_8));
        if (ref.kind() == KeyRef.Kind.POOL_MEMBER) {
          assertThat(fromIndex.put(ref.id(), ref.pool()))
              .as("member of two pools: " + ref.id())
              .isNull();
        }
      }
      Map<String, String> expectedWithPool = new TreeMap<>();
      expected.forEach(
          (id, pool) -> {
            if (pool != null) {
              expectedWithPool.put(id, pool);
            }
          });
      // The run ends with many nodes in every pool, so the comparison below compares something.
      assertThat(expectedWithPool).hasSizeGreaterThan(50);
      assertThat(new java.util.HashSet<>(expectedWithPool.values()))
          .containsExactlyInAnyOrder("general", "gpu", "storage");
      assertThat(fromSpecs).isEqualTo(expectedWithPool);
      assertThat(fromIndex).isEqualTo(fromSpecs);
    }
  }

  private static List<KeyValue> all(Client client, String prefix) throws Exception {
    return client
        .getKVClient()
        .get(
            ByteSequence.from(prefix, StandardCharsets.UTF_8),
            GetOption.builder().isPrefix(true).build())
        .get()
        .getKvs();
  }
}
