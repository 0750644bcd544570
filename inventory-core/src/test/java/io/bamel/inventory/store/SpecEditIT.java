package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.Client;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

  private Client client;
  private EtcdInventory inventory;

  @BeforeEach
  void connect() {
    client = ETCD.cluster().client();
    inventory = new EtcdInventory(client);
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  @Test
  void anEditWritesWhatItMakesOfTheStoredNodeWithItsEvent() {
    long created = inventory.createNode("n1", TestNodes.spec(1, "a"), event("created"));
    AtomicInteger calls = new AtomicInteger();
    long written =
        inventory.editSpec(
            "n1",
            current -> {
              calls.incrementAndGet();
              assertThat(current.specRevision()).isEqualTo(created);
              return new SpecEdit.Result(
                  current.spec().toBuilder().assetTag("AT-edited").build(), event("updated"));
            });
    Node stored = inventory.getNode("n1").orElseThrow();
    assertThat(written).isGreaterThan(created);
    assertThat(stored.specRevision()).isEqualTo(written);
    assertThat(stored.spec().assetTag()).isEqualTo("AT-edited");
    assertThat(calls).hasValue(1);
    assertThat(inventory.events("n1"))
        .extracting(NodeEvent::seq, NodeEvent::reason)
        .containsExactly(Tuple.tuple(1L, "created"), Tuple.tuple(2L, "updated"));
  }

  @Test
  void aSpecChangedBetweenTheReadAndTheWriteLosesTheRace() {
    long created = inventory.createNode("n1", TestNodes.spec(1, "a"), event("created"));
    assertThatThrownBy(
            () ->
                inventory.editSpec(
                    "n1",
                    current -> {
                      // another writer gets in after the read
                      inventory.replaceSpec(
                          "n1", created, TestNodes.spec(1, "other"), event("other"));
                      return new SpecEdit.Result(
                          current.spec().toBuilder().assetTag("lost").build(), event("updated"));
                    }))
        .isInstanceOf(ConflictException.class);
    Node stored = inventory.getNode("n1").orElseThrow();
    assertThat(stored.spec().pool()).isEqualTo("other");
    assertThat(stored.spec().assetTag()).isNotEqualTo("lost");
    assertThat(inventory.events("n1"))
        .extracting(NodeEvent::reason)
        .containsExactly("created", "other");
  }

  @Test
  void anEditThatRefusesOrChangesNothingWritesNothing() {
    long created = inventory.createNode("n1", TestNodes.spec(1, "a"), event("created"));
    assertThatThrownBy(
            () ->
                inventory.editSpec(
                    "n1",
                    current -> {
                      throw new IllegalStateException("refused");
                    }))
        .hasMessage("refused");
    long unchanged =
        inventory.editSpec("n1", current -> new SpecEdit.Result(current.spec(), event("none")));
    assertThat(unchanged).isEqualTo(created);
    assertThat(inventory.getNode("n1").orElseThrow().specRevision()).isEqualTo(created);
    assertThat(inventory.events("n1")).extracting(NodeEvent::reason).containsExactly("created");
  }

  @Test
  void aMissingNodeIsNotFoundAndTheEditIsNotAsked() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                inventory.editSpec(
                    "missing",
                    current -> {
                      calls.incrementAndGet();
                      return new SpecEdit.Result(TestNodes.spec(1, "a"), null);
                    }))
        .isInstanceOf(NotFoundException.class);
    assertThat(calls).hasValue(0);
    assertThat(inventory.getNode("missing")).isEmpty();
  }

  @Test
  void anInvalidSpecIsRefusedBeforeAnyWrite() {
    long created = inventory.createNode("n1", TestNodes.spec(1, "a"), event("created"));
    NodeSpec invalid = TestNodes.spec(1, "a").toBuilder().pool("").build();
    assertThatThrownBy(
            () -> inventory.editSpec("n1", current -> new SpecEdit.Result(invalid, null)))
        .isInstanceOf(InvalidInputException.class);
    assertThat(inventory.getNode("n1").orElseThrow().specRevision()).isEqualTo(created);
  }

  private static NodeEvent event(String type) {
    return NodeEvent.of(T0, type, "test");
  }
}
