package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EtcdInventoryIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @RegisterExtension final EtcdConnection etcd = new EtcdConnection(ETCD);

  @Test
  void createGetAndCreateAgainFails() {
    long rev =
        etcd.inventory()
            .createNode("n1", TestNodes.spec(1, "general"), NodeEvent.of(T0, "created", "test"));
    Node node = etcd.inventory().getNode("n1").orElseThrow();
    assertThat(node.spec()).isEqualTo(TestNodes.spec(1, "general"));
    assertThat(node.specRevision()).isEqualTo(rev);
    assertThat(node.status()).isNull();
    assertThatThrownBy(() -> etcd.inventory().createNode("n1", TestNodes.spec(1, "x"), null))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(etcd.inventory().getNode("n1").orElseThrow().spec().pool()).isEqualTo("general");
    assertThat(etcd.inventory().getNode("missing")).isEmpty();
  }

  @Test
  void replaceSpecIsACompareAndSwap() {
    long rev = etcd.inventory().createNode("n1", TestNodes.spec(1, "a"), null);
    long rev2 = etcd.inventory().replaceSpec("n1", rev, TestNodes.spec(1, "b"), null);
    assertThat(rev2).isGreaterThan(rev);
    assertThatThrownBy(() -> etcd.inventory().replaceSpec("n1", rev, TestNodes.spec(1, "c"), null))
        .isInstanceOfSatisfying(
            ConflictException.class, e -> assertThat(e.currentRevision()).isEqualTo(rev2));
    assertThat(etcd.inventory().getNode("n1").orElseThrow().spec().pool()).isEqualTo("b");
  }

  @Test
  void eightConcurrentWritersLoseNoUpdate() throws Exception {
    etcd.inventory()
        .createNode("n1", TestNodes.spec(1, "p").toBuilder().rackPosition(0).build(), null);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < 8; w++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 100; i++) {
                    StoreEdits.updateSpec(
                        etcd.inventory(),
                        "n1",
                        s -> s.toBuilder().rackPosition(s.rackPosition() + 1).build(),
                        null);
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(etcd.inventory().getNode("n1").orElseThrow().spec().rackPosition()).isEqualTo(800);
  }

  @Test
  void eventsAreAppendedWithTheChangeAndBounded() {
    EtcdInventory small =
        new EtcdInventory(etcd.client(), EtcdInventory.Options.DEFAULTS.withEventLimit(10));
    small.createNode("n1", TestNodes.spec(1, "p"), NodeEvent.of(T0, "created", "by test"));
    for (int i = 0; i < 25; i++) {
      int position = i;
      StoreEdits.updateSpec(
          small,
          "n1",
          s -> s.toBuilder().rackPosition(position).build(),
          NodeEvent.of(T0.plusSeconds(i), "moved", "to " + position));
    }
    List<NodeEvent> events = small.events("n1");
    assertThat(events).hasSize(10);
    assertThat(events)
        .extracting(NodeEvent::seq)
        .containsExactly(17L, 18L, 19L, 20L, 21L, 22L, 23L, 24L, 25L, 26L);
    assertThat(events.get(9).message()).isEqualTo("to 24");
  }

  @Test
  void statusWritesAreFencedByLeadership() throws Exception {
    etcd.inventory().createNode("n1", TestNodes.spec(1, "p"), null);
    ByteSequence leaderKey =
        ByteSequence.from(Keys.leader("node-controller"), StandardCharsets.UTF_8);
    etcd.client()
        .getKVClient()
        .put(leaderKey, ByteSequence.from("a", StandardCharsets.UTF_8))
        .get();
    long created =
        etcd.client().getKVClient().get(leaderKey).get().getKvs().get(0).getCreateRevision();
    WriteFence fence = new WriteFence(Keys.leader("node-controller"), created);
    NodeStatus ready = NodeStatus.builder().state(NodeState.READY).stateSince(T0).build();
    StoreEdits.updateStatus(
        etcd.inventory(), "n1", s -> ready, NodeEvent.of(T0, "ready", "joined"), fence);
    assertThat(etcd.inventory().getNode("n1").orElseThrow().status().state())
        .isEqualTo(NodeState.READY);

    // Another process becomes leader: the key is recreated, so its create revision changes.
    etcd.client().getKVClient().delete(leaderKey).get();
    etcd.client()
        .getKVClient()
        .put(leaderKey, ByteSequence.from("b", StandardCharsets.UTF_8), PutOption.DEFAULT)
        .get();
    NodeStatus off = NodeStatus.builder().state(NodeState.OFF).stateSince(T0).build();
    assertThatThrownBy(() -> StoreEdits.updateStatus(etcd.inventory(), "n1", s -> off, null, fence))
        .isInstanceOf(FencedException.class);
    assertThat(etcd.inventory().getNode("n1").orElseThrow().status().state())
        .isEqualTo(NodeState.READY);
    assertThat(etcd.inventory().events("n1")).hasSize(1);
  }

  @Test
  void batchUpsertsAndDeletesAreFencedByLeadership() throws Exception {
    etcd.inventory().createNode("n1", TestNodes.spec(1, "p"), null);
    ByteSequence leaderKey = ByteSequence.from(Keys.leader("netbox-sync"), StandardCharsets.UTF_8);
    etcd.client()
        .getKVClient()
        .put(leaderKey, ByteSequence.from("a", StandardCharsets.UTF_8))
        .get();
    long created =
        etcd.client().getKVClient().get(leaderKey).get().getKvs().get(0).getCreateRevision();
    WriteFence fence = new WriteFence(Keys.leader("netbox-sync"), created);
    List<BatchResult> written =
        etcd.inventory()
            .upsertAll(List.of(BatchItem.upsert("n2", TestNodes.spec(2, "p"), null)), fence);
    assertThat(written.get(0).outcome()).isEqualTo(BatchResult.Outcome.CREATED);

    etcd.client().getKVClient().delete(leaderKey).get();
    etcd.client()
        .getKVClient()
        .put(leaderKey, ByteSequence.from("b", StandardCharsets.UTF_8))
        .get();
    long before = etcd.client().getKVClient().get(leaderKey).get().getHeader().getRevision();
    assertThatThrownBy(
            () ->
                etcd.inventory()
                    .upsertAll(
                        List.of(BatchItem.upsert("n3", TestNodes.spec(3, "p"), null)), fence))
        .isInstanceOf(FencedException.class);
    long n1 = etcd.inventory().getNode("n1").orElseThrow().specRevision();
    assertThatThrownBy(() -> etcd.inventory().deleteNode("n1", n1, fence))
        .isInstanceOf(FencedException.class);
    assertThat(etcd.inventory().getNode("n1")).isPresent();
    assertThat(etcd.inventory().getNode("n3")).isEmpty();
    assertThat(etcd.inventory().currentRevision()).isEqualTo(before);
  }

  @Test
  void unknownFieldsSurviveAnUpdate() throws Exception {
    String newer =
        "{\"name\":\"n1\",\"pool\":\"p\",\"rackPosition\":1,\"fromTheFuture\":{\"x\":1},"
            + "\"resources\":{\"cpu\":\"4\",\"tpu\":\"2\"}}";
    etcd.client()
        .getKVClient()
        .put(
            ByteSequence.from(Keys.nodeSpec("n1"), StandardCharsets.UTF_8),
            ByteSequence.from(newer, StandardCharsets.UTF_8))
        .get();
    StoreEdits.updateSpec(etcd.inventory(), "n1", s -> s.toBuilder().rackPosition(2).build(), null);
    KeyValue kv =
        etcd.client()
            .getKVClient()
            .get(ByteSequence.from(Keys.nodeSpec("n1"), StandardCharsets.UTF_8))
            .get()
            .getKvs()
            .get(0);
    JsonNode stored = Codec.mapper().readTree(kv.getValue().getBytes());
    assertThat(stored.get("rackPosition").asInt()).isEqualTo(2);
    assertThat(stored.at("/fromTheFuture/x").asInt()).isEqualTo(1);
    assertThat(stored.at("/resources/tpu").asText()).isEqualTo("2");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a/b",
        "..",
        "",
        "Upper",
        "ünï",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
      })
  void invalidIdsNeverReachEtcd(String id) {
    long before = ETCD.cluster().revision();
    assertThatThrownBy(() -> etcd.inventory().createNode(id, TestNodes.spec(1, "p"), null))
        .isInstanceOf(InvalidInputException.class);
    assertThat(
            etcd.inventory()
                .upsertAll(List.of(BatchItem.upsert(id, TestNodes.spec(1, "p"), null)))
                .get(0)
                .outcome())
        .isEqualTo(BatchResult.Outcome.INVALID);
    assertThatThrownBy(() -> etcd.inventory().putPoolConfig(id, PoolConfig.builder().build(), 0))
        .isInstanceOf(InvalidInputException.class);
    assertThat(ETCD.cluster().revision()).isEqualTo(before);
  }

  @Test
  void deleteRemovesEveryKeyOfTheNodeInOneTransaction() throws Exception {
    etcd.inventory().createNode("n1", TestNodes.spec(1, "p"), NodeEvent.of(T0, "created", null));
    StoreEdits.updateStatus(
        etcd.inventory(), "n1", s -> NodeStatus.initial(T0), NodeEvent.of(T0, "seen", null), null);
    long before = ETCD.cluster().revision();
    assertThat(etcd.inventory().deleteNode("n1", EtcdInventory.ANY_REVISION)).isTrue();
    assertThat(ETCD.cluster().revision()).isEqualTo(before + 1);
    List<KeyValue> left =
        etcd.client()
            .getKVClient()
            .get(
                ByteSequence.from(Keys.ROOT, StandardCharsets.UTF_8),
                GetOption.builder().isPrefix(true).build())
            .get()
            .getKvs();
    assertThat(left).isEmpty();
    assertThat(etcd.inventory().deleteNode("n1", EtcdInventory.ANY_REVISION)).isFalse();
  }

  @Test
  void poolConfigCrud() {
    long rev = etcd.inventory().putPoolConfig("gpu", PoolConfig.builder().minNodes(1).build(), 0);
    assertThatThrownBy(() -> etcd.inventory().putPoolConfig("gpu", PoolConfig.builder().build(), 0))
        .isInstanceOf(AlreadyExistsException.class);
    long rev2 =
        etcd.inventory().putPoolConfig("gpu", PoolConfig.builder().minNodes(2).build(), rev);
    assertThatThrownBy(
            () -> etcd.inventory().putPoolConfig("gpu", PoolConfig.builder().build(), rev))
        .isInstanceOf(ConflictException.class);
    assertThat(etcd.inventory().getPool("gpu").orElseThrow().config().minNodes()).isEqualTo(2);
    etcd.inventory().createNode("n1", TestNodes.spec(1, "gpu"), null);
    assertThatThrownBy(() -> etcd.inventory().deletePool("gpu", rev2))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining("1 members");
    etcd.inventory().deleteNode("n1", EtcdInventory.ANY_REVISION);
    assertThat(etcd.inventory().deletePool("gpu", rev2)).isTrue();
    assertThat(etcd.inventory().getPool("gpu")).isEmpty();
  }

  @Test
  void listsNodesInPagesAtOneRevision() {
    for (int i = 0; i < 25; i++) {
      etcd.inventory().createNode(TestNodes.id(i), TestNodes.spec(i, "p"), null);
      StoreEdits.updateStatus(
          etcd.inventory(), TestNodes.id(i), s -> NodeStatus.initial(T0), null, null);
    }
    NodePage first = etcd.inventory().listNodes(null, 10, 0);
    etcd.inventory().createNode("zzz-late", TestNodes.spec(99, "p"), null);
    List<String> ids = new ArrayList<>(first.items().stream().map(Node::id).toList());
    String next = first.next();
    while (next != null) {
      NodePage page = etcd.inventory().listNodes(next, 10, first.revision());
      ids.addAll(page.items().stream().map(Node::id).toList());
      next = page.next();
    }
    assertThat(ids).hasSize(25).doesNotHaveDuplicates().isSorted().doesNotContain("zzz-late");
    assertThat(first.items()).allSatisfy(n -> assertThat(n.status()).isNotNull());
  }

  @Test
  void listingACompactedRevisionFails() {
    etcd.inventory().createNode("n1", TestNodes.spec(1, "p"), null);
    long old = ETCD.cluster().revision();
    StoreEdits.updateSpec(etcd.inventory(), "n1", s -> s.toBuilder().rack("r9").build(), null);
    StoreEdits.updateSpec(etcd.inventory(), "n1", s -> s.toBuilder().rack("r8").build(), null);
    ETCD.cluster().compact(ETCD.cluster().revision());
    assertThatThrownBy(() -> etcd.inventory().listNodes(null, 10, old))
        .isInstanceOf(CompactedException.class);
  }

  @Test
  void statusOfAMissingNodeIsNotFound() {
    assertThatThrownBy(
            () ->
                StoreEdits.updateStatus(
                    etcd.inventory(), "ghost", s -> NodeStatus.initial(T0), null, null))
        .isInstanceOf(NotFoundException.class);
    assertThat(etcd.inventory().getNode("ghost")).isEmpty();
  }

  @Test
  void unchangedSpecWritesNothing() {
    NodeSpec spec = TestNodes.spec(1, "p");
    long rev = etcd.inventory().createNode("n1", spec, null);
    long before = ETCD.cluster().revision();
    assertThat(
            StoreEdits.updateSpec(etcd.inventory(), "n1", s -> spec, NodeEvent.of(T0, "noop", null))
                .revision())
        .isEqualTo(rev);
    assertThat(ETCD.cluster().revision()).isEqualTo(before);
  }
}
