package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.WriteFence;
import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A sharded controller's writes are fenced by its replica key: they commit while the key lives and
 * are refused once it is gone (its lease expired), even before the replica notices.
 */
class ReplicaFenceIT extends TestSiteTests {

  @Test
  void writesCommitWhileTheReplicaKeyLivesAndAreRefusedOnceItIsGone() throws Exception {
    openSite();
    try (ReplicaRegistry replica =
        new ReplicaRegistry(site.client, "bamel-a", ControllerInstance.REPLICAS).start()) {
      String id = site.addNodes(1, "batch", DesiredPower.OFF).get(0);
      assertThat(replica.awaitRegistered(Duration.ofSeconds(10))).isTrue();
      await().atMost(Duration.ofSeconds(10)).until(() -> replica.fence().isPresent());
      WriteFence fence = replica.fence().orElseThrow();
      assertThat(fence.key()).isEqualTo(Keys.replica("bamel-a"));

      Node node = site.node(id);
      NodeStatus status = NodeStatus.initial(Instant.now());
      long written = site.inventory.putStatus(node, status, null, fence);
      assertThat(written).isPositive();

      // the key goes as at a lease expiry; the replica has not noticed yet
      site.client
          .getKVClient()
          .delete(ByteSequence.from(Keys.replica("bamel-a"), StandardCharsets.UTF_8))
          .get(5, TimeUnit.SECONDS);
      Node now = site.node(id);
      assertThatThrownBy(
              () ->
                  site.inventory.putStatus(
                      now,
                      status.toBuilder().observedPower(ObservedPower.OFF).build(),
                      null,
                      fence))
          .isInstanceOf(FencedException.class);
      assertThat(site.node(id).statusRevision()).isEqualTo(written);
    }
  }
}
