package io.bamel.inventory.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The harness itself: members start, stop, restart, die, and nothing is left behind. */
class EtcdClusterIT {

  @Test
  void threeMembersSurviveLosingOneAndLeaveNoProcessBehind() throws Exception {
    List<Long> pids = new ArrayList<>();
    try (EtcdCluster cluster = EtcdCluster.start(3)) {
      for (int i = 0; i < 3; i++) {
        pids.add(cluster.member(i).pid());
      }
      Client client = cluster.client();
      ByteSequence key = ByteSequence.from("/test/k", StandardCharsets.UTF_8);
      client
          .getKVClient()
          .put(key, ByteSequence.from("v1", StandardCharsets.UTF_8))
          .get(10, TimeUnit.SECONDS);

      int leader = cluster.leader();
      cluster.kill(leader);
      assertThat(cluster.member(leader).isRunning()).isFalse();
      cluster.awaitAvailable(Duration.ofSeconds(30));
      client
          .getKVClient()
          .put(key, ByteSequence.from("v2", StandardCharsets.UTF_8))
          .get(10, TimeUnit.SECONDS);

      cluster.restart(leader);
      pids.add(cluster.member(leader).pid());
      long revision = cluster.revision();
      cluster.compact(revision);
      assertThat(
              client
                  .getKVClient()
                  .get(key)
                  .get(10, TimeUnit.SECONDS)
                  .getKvs()
                  .get(0)
                  .getValue()
                  .toString(StandardCharsets.UTF_8))
          .isEqualTo("v2");
    }
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("etcd pid " + pid + " still running")
          .isFalse();
    }
  }

  @Test
  void aStoppedSingleMemberRestartsOnItsData() throws Exception {
    try (EtcdCluster cluster = EtcdCluster.start(1)) {
      Client client = cluster.client();
      ByteSequence key = ByteSequence.from("/test/persisted", StandardCharsets.UTF_8);
      client
          .getKVClient()
          .put(key, ByteSequence.from("kept", StandardCharsets.UTF_8))
          .get(10, TimeUnit.SECONDS);
      cluster.bounce(0);
      cluster.awaitAvailable(Duration.ofSeconds(30));
      assertThat(client.getKVClient().get(key).get(10, TimeUnit.SECONDS).getKvs()).hasSize(1);
    }
  }
}
