package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.BatchResult.Outcome;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import io.etcd.jetcd.Client;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BatchUpsertIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void tenThousandNodesInOneBatchThenAnIdempotentRerun() {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      List<BatchItem> items = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        items.add(
            BatchItem.upsert(
                TestNodes.id(i),
                TestNodes.spec(i, "pool-" + (i % 4)),
                NodeEvent.of(T0, "synced", "created by batch")));
      }
      List<BatchResult> first = inventory.upsertAll(items);
      assertThat(first)
          .hasSize(10_000)
          .allSatisfy(r -> assertThat(r.outcome()).isEqualTo(Outcome.CREATED));
      assertThat(first.get(9_999).id()).isEqualTo(TestNodes.id(9_999));
      // Transactions stayed within etcd's limits: each holds many nodes, none was split per node.
      long transactions = first.stream().map(BatchResult::revision).distinct().count();
      assertThat(transactions).isBetween(10_000L / 42, 10_000L / 10);

      long before = ETCD.cluster().revision();
      List<BatchResult> second = inventory.upsertAll(items);
      assertThat(second).allSatisfy(r -> assertThat(r.outcome()).isEqualTo(Outcome.UNCHANGED));
      assertThat(ETCD.cluster().revision()).isEqualTo(before);

      assertThat(inventory.getPool("pool-3").orElseThrow().members()).hasSize(2_500);
      assertThat(inventory.events(TestNodes.id(5))).hasSize(1);
    }
  }

  @Test
  void reportsEachItemOnItsOwn() {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      long rev = inventory.createNode("existing", TestNodes.spec(1, "a"), null);
      List<BatchItem> items =
          List.of(
              BatchItem.upsert("new-1", TestNodes.spec(2, "a"), null),
              new BatchItem("existing", TestNodes.spec(1, "b"), rev, null),
              new BatchItem("stale", TestNodes.spec(3, "a"), 12345, null),
              BatchItem.upsert("Bad/Id", TestNodes.spec(4, "a"), null),
              BatchItem.upsert("new-1", TestNodes.spec(5, "a"), null),
              new BatchItem("existing2", TestNodes.spec(6, "a"), 0, null),
              // A repeated id is refused only after an earlier item with that id was valid.
              BatchItem.upsert(
                  "twice", TestNodes.spec(7, "a").toBuilder().rackPosition(-1).build(), null),
              BatchItem.upsert("twice", TestNodes.spec(8, "a"), null),
              BatchItem.upsert("again", TestNodes.spec(9, "a"), null),
              BatchItem.upsert(
                  "again", TestNodes.spec(10, "a").toBuilder().rackPosition(-1).build(), null));
      Map<String, BatchResult> results =
          inventory.upsertAll(items).stream()
              .collect(Collectors.toMap(r -> r.id() + r.outcome(), Function.identity()));
      assertThat(results)
          .containsKeys(
              "new-1CREATED",
              "existingUPDATED",
              "staleCONFLICT",
              "Bad/IdINVALID",
              "new-1INVALID",
              "existing2CREATED",
              "twiceINVALID",
              "twiceCREATED",
              "againCREATED",
              "againINVALID");
      assertThat(results.get("new-1INVALID").message()).contains("more than once");
      assertThat(results.get("twiceINVALID").message()).contains("rackPosition");
      assertThat(results.get("againINVALID").message()).contains("rackPosition");
      assertThat(inventory.getNode("twice").orElseThrow().spec().serial())
          .isEqualTo(TestNodes.spec(8, "a").serial());
      assertThat(inventory.getNode("existing").orElseThrow().spec().pool()).isEqualTo("b");
      assertThat(inventory.getNode("stale")).isEmpty();
    }
  }

  @Test
  void aLostRaceInsideABatchIsRetriedPerItem() {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      inventory.createNode("n1", TestNodes.spec(1, "a"), null);
      inventory.createNode("n2", TestNodes.spec(2, "a"), null);
      // A reader that lets another writer change n1 after the batch has read it.
      EtcdInventory racer = new EtcdInventory(client);
      BatchUpsert batch =
          new BatchUpsert(
              client.getKVClient(),
              EtcdInventory.Options.DEFAULTS,
              new NodeWrites(100),
              ids -> {
                List<NodeRecord> records = inventory.readMany(ids);
                if (ids.size() == 2) {
                  StoreEdits.updateSpec(
                      racer, "n1", s -> s.toBuilder().rack("moved").build(), null);
                }
                return records;
              },
              null);
      List<BatchResult> results =
          batch.run(
              List.of(
                  BatchItem.upsert("n1", TestNodes.spec(1, "b"), null),
                  BatchItem.upsert("n2", TestNodes.spec(2, "b"), null)));
      assertThat(results)
          .extracting(BatchResult::outcome)
          .containsExactly(Outcome.UPDATED, Outcome.UPDATED);
      assertThat(inventory.getPool("b").orElseThrow().members())
          .containsExactlyInAnyOrder("n1", "n2");
    }
  }

  @Test
  void itemsThatMustBeNewAreNotReadAndAnExistingOneIsStillAConflict() {
    try (Client client = ETCD.cluster().client()) {
      EtcdInventory inventory = new EtcdInventory(client);
      long rev = inventory.createNode("stored", TestNodes.spec(1, "a"), null);
      inventory.createNode("taken", TestNodes.spec(2, "a"), null);
      List<List<String>> reads = new ArrayList<>();
      BatchUpsert batch =
          new BatchUpsert(
              client.getKVClient(),
              EtcdInventory.Options.DEFAULTS,
              new NodeWrites(100),
              ids -> {
                reads.add(List.copyOf(ids));
                return inventory.readSpecs(ids);
              },
              null);
      NodeEvent created = NodeEvent.of(T0, "created", "sync");
      List<BatchResult> results =
          batch.run(
              List.of(
                  new BatchItem("new-a", TestNodes.spec(3, "a"), 0, created),
                  new BatchItem("stored", TestNodes.spec(1, "b"), 0, created),
                  new BatchItem("new-b", TestNodes.spec(4, "a"), 0, created),
                  new BatchItem(
                      "new-c",
                      TestNodes.spec(5, "a").toBuilder()
                          .serial(TestNodes.spec(2, "a").serial())
                          .build(),
                      0,
                      created),
                  BatchItem.upsert("new-d", TestNodes.spec(6, "a"), created)));
      // Only the item based on a stored revision was read before the write; the chunk the
      // existing node and the taken serial failed was retried item by item, each read then.
      assertThat(reads.get(0)).containsExactly("new-d");
      assertThat(reads.subList(1, reads.size()))
          .allSatisfy(ids -> assertThat(ids).hasSize(1))
          .contains(List.of("new-a"), List.of("stored"), List.of("new-c"));
      assertThat(results)
          .extracting(BatchResult::outcome)
          .containsExactly(
              Outcome.CREATED,
              Outcome.CONFLICT,
              Outcome.CREATED,
              Outcome.DUPLICATE,
              Outcome.CREATED);
      assertThat(results.get(1).message()).contains("node is at revision " + rev + ", expected 0");
      assertThat(results.get(3).message()).contains("serial", "node taken");
      assertThat(inventory.getNode("stored").orElseThrow().spec().pool()).isEqualTo("a");
      assertThat(inventory.getNode("new-c")).isEmpty();
      assertThat(inventory.events("new-b")).hasSize(1);
    }
  }
}
