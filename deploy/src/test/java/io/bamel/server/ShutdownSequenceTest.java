package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.server.ShutdownSequence.Stage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShutdownSequenceTest {

  private final List<String> closed = new ArrayList<>();

  private AutoCloseable part(String name) {
    return () -> closed.add(name);
  }

  @Test
  void closesByStageWhateverTheStartOrderAndInReverseWithinAStage() {
    ShutdownSequence sequence = new ShutdownSequence();
    // Registered in the order BamelServer starts them.
    sequence.add(Stage.EMBEDDED_ETCD, "embedded etcd", part("embedded etcd"));
    sequence.add(Stage.ETCD_CLIENT, "etcd client", part("etcd client"));
    sequence.add(Stage.CACHE, "cache", part("cache"));
    sequence.add(Stage.REQUESTS, "api", part("api"));
    sequence.add(Stage.CONTROLLER_CLIENTS, "cluster", part("cluster"));
    sequence.add(Stage.CONTROLLER_CLIENTS, "drivers", part("drivers"));
    sequence.add(Stage.LEADERSHIP, "leader node", part("leader node"));
    sequence.add(Stage.CONTROLLERS, "node", part("node"));
    sequence.add(Stage.LEADERSHIP, "leader pool", part("leader pool"));
    sequence.add(Stage.CONTROLLERS, "pool", part("pool"));

    sequence.closeAll();

    assertThat(closed)
        .containsExactly(
            "api",
            "pool",
            "node",
            "leader pool",
            "leader node",
            "drivers",
            "cluster",
            "cache",
            "etcd client",
            "embedded etcd");
  }

  @Test
  void aFailureDoesNotStopTheSequenceWhichRunsOnce() {
    ShutdownSequence sequence = new ShutdownSequence();
    sequence.add(Stage.REQUESTS, "api", part("api"));
    sequence.add(
        Stage.CONTROLLERS,
        "broken",
        () -> {
          throw new IllegalStateException("boom");
        });
    sequence.add(Stage.ETCD_CLIENT, "etcd client", part("etcd client"));
    sequence.closeAll();
    sequence.closeAll();
    assertThat(closed).containsExactly("api", "etcd client");
    assertThat(sequence.closed()).isTrue();
  }

  @Test
  void aPartStartedAfterTheSequenceRanIsClosedAtOnceAndTheStartFails() {
    ShutdownSequence sequence = new ShutdownSequence();
    sequence.closeAll();
    assertThatThrownBy(() -> sequence.add(Stage.CACHE, "cache", part("cache")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stopping");
    assertThat(closed).containsExactly("cache");
  }
}
