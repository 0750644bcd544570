package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The unique-field index keys are kept by the store, in the transaction of the spec. */
class UniqueIndexIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @RegisterExtension final EtcdConnection etcd = new EtcdConnection(ETCD);

  @Test
  void concurrentCreatesWithOneSerialLetExactlyOneThrough() throws Exception {
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<String>> outcomes = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String id = "n" + w;
        NodeSpec spec = TestNodes.spec(w, "p").toBuilder().serial("SN-SAME").build();
        outcomes.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    etcd.inventory().createNode(id, spec, NodeEvent.of(T0, "created", null));
                    return "ok";
                  } catch (DuplicateValueException e) {
                    assertThat(e.field()).isEqualTo("serial");
                    assertThat(e.value()).isEqualTo("SN-SAME");
                    assertThat(e.holder()).isNotEqualTo(id).startsWith("n");
                    return "duplicate";
                  }
                }));
      }
      start.countDown();
      List<String> results = new ArrayList<>();
      for (Future<String> f : outcomes) {
        results.add(f.get(30, TimeUnit.SECONDS));
      }
      assertThat(results).containsOnlyOnce("ok");
      assertThat(results).filteredOn("duplicate"::equals).hasSize(writers - 1);
    } finally {
      pool.shutdownNow();
    }
    Map<String, String> index = index();
    assertThat(index).containsKey(Keys.indexSerial("SN-SAME"));
    String winner = index.get(Keys.indexSerial("SN-SAME"));
    assertThat(etcd.inventory().getNode(winner)).isPresent();
    assertThat(index).hasSize(3);
  }

  @Test
  void changingTheMacFreesTheOldValue() {
    NodeSpec a = TestNodes.spec(1, "p");
    etcd.inventory().createNode("a", a, null);
    NodeSpec b = TestNodes.spec(2, "p").toBuilder().macAddress(a.macAddress()).build();
    assertThatThrownBy(() -> etcd.inventory().createNode("b", b, null))
        .isInstanceOfSatisfying(
            DuplicateValueException.class,
            e -> {
              assertThat(e.field()).isEqualTo("macAddress");
              assertThat(e.holder()).isEqualTo("a");
            })
        .hasMessageContaining("already used by node a");

    StoreEdits.updateSpec(
        etcd.inventory(), "a", s -> s.toBuilder().macAddress("0c:c4:7a:ff:ff:01").build(), null);
    etcd.inventory().createNode("b", b, null);

    Map<String, String> index = index();
    assertThat(index.get(Keys.indexMac(a.macAddress()))).isEqualTo("b");
    assertThat(index.get(Keys.indexMac("0c:c4:7a:ff:ff:01"))).isEqualTo("a");
    assertThat(index).hasSize(6);

    long rev = etcd.inventory().getNode("a").orElseThrow().specRevision();
    assertThatThrownBy(
            () ->
                etcd.inventory()
                    .replaceSpec(
                        "a",
                        rev,
                        etcd.inventory().getNode("a").orElseThrow().spec().toBuilder()
                            .macAddress(a.macAddress())
                            .build(),
                        null))
        .isInstanceOf(DuplicateValueException.class)
        .hasMessageContaining("used by node b");
  }

  @Test
  void deleteFreesEveryValue() {
    NodeSpec a = TestNodes.spec(1, "p");
    etcd.inventory().createNode("a", a, null);
    assertThat(index()).hasSize(3);
    etcd.inventory().deleteNode("a", EtcdInventory.ANY_REVISION);
    assertThat(index()).isEmpty();
    etcd.inventory().createNode("b", a.toBuilder().name("b").build(), null);
    assertThat(index()).hasSize(3).containsValue("b").doesNotContainValue("a");
  }

  @Test
  void batchRejectsDuplicatesInTheBatchAndAgainstStoredNodes() {
    etcd.inventory().createNode("stored", TestNodes.spec(1, "p"), null);
    List<BatchItem> items =
        List.of(
            BatchItem.upsert("b1", TestNodes.spec(2, "p").toBuilder().serial("SN-X").build(), null),
            BatchItem.upsert("b2", TestNodes.spec(3, "p").toBuilder().serial("SN-X").build(), null),
            BatchItem.upsert(
                "b3",
                TestNodes.spec(4, "p").toBuilder()
                    .mgmtAddress(TestNodes.spec(1, "p").mgmtAddress())
                    .build(),
                null),
            BatchItem.upsert("b4", TestNodes.spec(5, "p"), null));
    List<BatchResult> results = etcd.inventory().upsertAll(items);

    assertThat(results.get(0).outcome()).isEqualTo(BatchResult.Outcome.CREATED);
    assertThat(results.get(1).outcome()).isEqualTo(BatchResult.Outcome.DUPLICATE);
    assertThat(results.get(1).message()).contains("serial SN-X", "node b1");
    assertThat(results.get(2).outcome()).isEqualTo(BatchResult.Outcome.DUPLICATE);
    assertThat(results.get(2).message()).contains("mgmtAddress", "node stored");
    assertThat(results.get(3).outcome()).isEqualTo(BatchResult.Outcome.CREATED);
    assertThat(etcd.inventory().getNode("b2")).isEmpty();
    assertThat(etcd.inventory().getNode("b3")).isEmpty();
    assertThat(index()).hasSize(9);
  }

  @Test
  void batchOfManyNodesFitsEtcdLimitsAndFreedValuesCanBeTakenInTheSameBatch() {
    List<BatchItem> items = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      items.add(BatchItem.upsert(TestNodes.id(i), TestNodes.spec(i, "p"), null));
    }
    assertThat(etcd.inventory().upsertAll(items))
        .allMatch(r -> r.outcome() == BatchResult.Outcome.CREATED);
    assertThat(index()).hasSize(600);

    // node 0 gives its serial up, node 1 takes it (after it, in the same batch)
    NodeSpec zero = TestNodes.spec(0, "p");
    List<BatchResult> results =
        etcd.inventory()
            .upsertAll(
                List.of(
                    BatchItem.upsert(
                        TestNodes.id(0), zero.toBuilder().serial("SN-NEW").build(), null),
                    BatchItem.upsert(
                        TestNodes.id(1),
                        TestNodes.spec(1, "p").toBuilder().serial(zero.serial()).build(),
                        null)));
    assertThat(results).allMatch(r -> r.outcome() == BatchResult.Outcome.UPDATED);
    assertThat(index().get(Keys.indexSerial(zero.serial()))).isEqualTo(TestNodes.id(1));
    assertThat(index()).hasSize(600);
  }

  @Test
  void rebuildWritesMissingKeysAndIsIdempotent() throws Exception {
    for (int i = 0; i < 5; i++) {
      etcd.inventory().createNode(TestNodes.id(i), TestNodes.spec(i, "p"), null);
    }
    Map<String, String> complete = index();
    assertThat(complete).hasSize(15);
    dropIndex();
    assertThat(index()).isEmpty();

    assertThat(etcd.inventory().rebuildUniqueIndex()).isEqualTo(15);
    assertThat(index()).isEqualTo(complete);
    long revision = etcd.inventory().currentRevision();
    assertThat(etcd.inventory().rebuildUniqueIndex()).isZero();
    assertThat(etcd.inventory().currentRevision()).isEqualTo(revision);
    assertThat(index()).isEqualTo(complete);

    // the rebuilt index guards like a kept one
    assertThatThrownBy(
            () ->
                etcd.inventory()
                    .createNode(
                        "other",
                        TestNodes.spec(9, "p").toBuilder().serial("SN100003").build(),
                        null))
        .isInstanceOf(DuplicateValueException.class)
        .hasMessageContaining(TestNodes.id(3));
  }

  @Test
  void rebuildFromASyncedCacheWritesTheSameKeysWithoutReadingTheFleetAgain() throws Exception {
    for (int i = 0; i < 5; i++) {
      etcd.inventory().createNode(TestNodes.id(i), TestNodes.spec(i, "p"), null);
    }
    Map<String, String> complete = index();
    dropIndex();

    try (InventoryCache unstarted = new InventoryCache(etcd.client())) {
      assertThatThrownBy(() -> etcd.inventory().rebuildUniqueIndex(unstarted))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("synced");
    }
    assertThat(index()).isEmpty();

    try (InventoryCache cache = new InventoryCache(etcd.client()).start()) {
      assertThat(cache.awaitSynced(java.time.Duration.ofSeconds(30))).isTrue();
      assertThat(etcd.inventory().rebuildUniqueIndex(cache)).isEqualTo(15);
      assertThat(index()).isEqualTo(complete);
      assertThat(etcd.inventory().rebuildUniqueIndex(cache)).isZero();
    }
  }

  @Test
  void indexKeysAreSafeSegmentsAndParseAsIndex() {
    String serial = Keys.indexSerial("a/b ../ü");
    assertThat(serial).startsWith(Keys.INDEX + "serial/");
    assertThat(serial.substring((Keys.INDEX + "serial/").length())).matches("[A-Za-z0-9_-]+");
    assertThat(Keys.parse(serial).kind()).isEqualTo(KeyRef.Kind.INDEX);
    assertThat(Keys.parse(Keys.indexMac("0C:C4:7A:00:00:01")))
        .isEqualTo(new KeyRef(KeyRef.Kind.INDEX, null, null, 0));
    assertThat(Keys.indexMac("0C:C4:7A:00:00:01")).endsWith("/mac/0c:c4:7a:00:00:01");
    assertThat(Keys.parse(Keys.indexMgmt("https://192.0.2.1")).kind()).isEqualTo(KeyRef.Kind.INDEX);
    assertThat(Keys.parse(Keys.INDEX + "other/x").kind()).isEqualTo(KeyRef.Kind.OTHER);
    assertThat(Keys.parse(Keys.INDEX + "serial/a/b").kind()).isEqualTo(KeyRef.Kind.OTHER);
  }

  /** Deletes every index key, as if the nodes were written before the index existed. */
  private void dropIndex() throws Exception {
    etcd.client()
        .getKVClient()
        .delete(
            ByteSequence.from(Keys.INDEX, StandardCharsets.UTF_8),
            io.etcd.jetcd.options.DeleteOption.builder().isPrefix(true).build())
        .get(10, TimeUnit.SECONDS);
  }

  private Map<String, String> index() {
    try {
      Map<String, String> out = new TreeMap<>();
      for (KeyValue kv :
          etcd.client()
              .getKVClient()
              .get(
                  ByteSequence.from(Keys.INDEX, StandardCharsets.UTF_8),
                  GetOption.builder().isPrefix(true).build())
              .get(10, TimeUnit.SECONDS)
              .getKvs()) {
        out.put(
            kv.getKey().toString(StandardCharsets.UTF_8),
            kv.getValue().toString(StandardCharsets.UTF_8));
      }
      return out;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
