package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.testing.EtcdExtension;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link EtcdInventory#editSpec}: a read-modify-write of a node's spec in one read and one guarded
 * write, which the API's PATCH and power requests use; what it writes, and what it refuses.
 */
class SpecEditIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @RegisterExtension final EtcdConnection etcd = new EtcdConnection(ETCD);

  @Test
  void anEditWritesWhatItMakesOfTheStoredNodeWithItsEvent() {
    long created = etcd.inventory().createNode("n1", TestNodes.spec(1, "a"), event("created"));
    AtomicInteger calls = new AtomicInteger();
    long written =
        etcd.inventory()
            .editSpec(
                "n1",
                current -> {
                  calls.incrementAndGet();
                  assertThat(current.specRevision()).isEqualTo(created);
                  return new SpecEdit.Result(
                      current.spec().toBuilder().assetTag("AT-edited").build(), event("updated"));
                });
    Node stored = etcd.inventory().getNode("n1").orElseThrow();
    assertThat(written).isGreaterThan(created);
    assertThat(stored.specRevision()).isEqualTo(written);
    assertThat(stored.spec().assetTag()).isEqualTo("AT-edited");
    assertThat(calls).hasValue(1);
    assertThat(etcd.inventory().events("n1"))
        .extracting(NodeEvent::seq, NodeEvent::reason)
        .containsExactly(Tuple.tuple(1L, "created"), Tuple.tuple(2L, "updated"));
  }

  @Test
  void aSpecChangedBetweenTheReadAndTheWriteLosesTheRace() {
    long created = etcd.inventory().createNode("n1", TestNodes.spec(1, "a"), event("created"));
    assertThatThrownBy(
            () ->
                etcd.inventory()
                    .editSpec(
                        "n1",
                        current -> {
                          // another writer gets in after the read
                          etcd.inventory()
                              .replaceSpec(
                                  "n1", created, TestNodes.spec(1, "other"), event("other"));
                          return new SpecEdit.Result(
                              current.spec().toBuilder().assetTag("lost").build(),
                              event("updated"));
                        }))
        .isInstanceOf(ConflictException.class);
    Node stored = etcd.inventory().getNode("n1").orElseThrow();
    assertThat(stored.spec().pool()).isEqualTo("other");
    assertThat(stored.spec().assetTag()).isNotEqualTo("lost");
    assertThat(etcd.inventory().events("n1"))
        .extracting(NodeEvent::reason)
        .containsExactly("created", "other");
  }

  @Test
  void anEditThatRefusesOrChangesNothingWritesNothing() {
    long created = etcd.inventory().createNode("n1", TestNodes.spec(1, "a"), event("created"));
    assertThatThrownBy(
            () ->
                etcd.inventory()
                    .editSpec(
                        "n1",
                        current -> {
                          throw new IllegalStateException("refused");
                        }))
        .hasMessage("refused");
    long unchanged =
        etcd.inventory()
            .editSpec("n1", current -> new SpecEdit.Result(current.spec(), event("none")));
    assertThat(unchanged).isEqualTo(created);
    assertThat(etcd.inventory().getNode("n1").orElseThrow().specRevision()).isEqualTo(created);
    assertThat(etcd.inventory().events("n1"))
        .extracting(NodeEvent::reason)
        .containsExactly("created");
  }

  @Test
  void aMissingNodeIsNotFoundAndTheEditIsNotAsked() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                etcd.inventory()
                    .editSpec(
                        "missing",
                        current -> {
                          calls.incrementAndGet();
                          return new SpecEdit.Result(TestNodes.spec(1, "a"), null);
                        }))
        .isInstanceOf(NotFoundException.class);
    assertThat(calls).hasValue(0);
    assertThat(etcd.inventory().getNode("missing")).isEmpty();
  }

  @Test
  void anInvalidSpecIsRefusedBeforeAnyWrite() {
    long created = etcd.inventory().createNode("n1", TestNodes.spec(1, "a"), event("created"));
    NodeSpec invalid = TestNodes.spec(1, "a").toBuilder().pool("").build();
    assertThatThrownBy(
            () -> etcd.inventory().editSpec("n1", current -> new SpecEdit.Result(invalid, null)))
        .isInstanceOf(InvalidInputException.class);
    assertThat(etcd.inventory().getNode("n1").orElseThrow().specRevision()).isEqualTo(created);
  }

  private static NodeEvent event(String type) {
    return NodeEvent.of(T0, type, "test");
  }
}
