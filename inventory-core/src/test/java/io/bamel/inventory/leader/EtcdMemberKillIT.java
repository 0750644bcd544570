package io.bamel.inventory.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.connection.EtcdClientTuning;
import io.bamel.inventory.connection.EtcdReconnector;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Losing one etcd member, quorum intact, costs no leadership: a three-member cluster under writes
 * and reads, the Raft leader killed (SIGKILL) three times, the first time while bamel's client is
 * connected to it. The leading candidate keeps the same key, lease and term throughout, hears no
 * step-down, and the standby never leads.
 */
class EtcdMemberKillIT {

  @RegisterExtension final EtcdExtension etcd = EtcdExtension.cluster(3);

  /**
   * The lease TTL, shorter than a server's 15 s so that the three rounds' waits (a TTL and a half
   * each) stay short; a shorter TTL only narrows the window in which the keep-alive must move to
   * another member (a fifth of the TTL is the leader's safety margin, etcd elects in about 0.5 s
   * here). Checks and request deadlines keep the same fractions of it as before (a fifth, a half).
   */
  static final Duration TTL = Duration.ofSeconds(6);

  static final LeaderElection.Options OPTIONS =
      new LeaderElection.Options(TTL, TTL.dividedBy(5), TTL.dividedBy(2));
  static final ByteSequence KEY =
      ByteSequence.from(Keys.leader("node-controller"), StandardCharsets.UTF_8);

  @Test
  void killingTheEtcdLeaderMemberMovesNoLeadership() throws Exception {
    EtcdCluster cluster = etcd.cluster();
    // bamel's client tries its endpoints in order: the Raft leader first, so that the first kill
    // also breaks the connection every stream of the client runs on.
    int raftLeader = cluster.leader();
    List<String> endpoints = new ArrayList<>(cluster.endpoints());
    endpoints.add(0, endpoints.remove(raftLeader));
    List<String> events = new CopyOnWriteArrayList<>();
    AtomicBoolean loading = new AtomicBoolean(true);
    AtomicLong acknowledged = new AtomicLong();
    List<Thread> load = new ArrayList<>();
    try (Client leaderClient = tuned(endpoints);
        Client standbyClient = tuned(cluster.endpoints());
        Client loadClient = tuned(cluster.endpoints());
        EtcdReconnector r1 = new EtcdReconnector(leaderClient, endpoints).start();
        EtcdReconnector r2 = new EtcdReconnector(standbyClient, endpoints).start();
        LeaderElection a = new LeaderElection(leaderClient, "node-controller", "a", OPTIONS);
        LeaderElection b = new LeaderElection(standbyClient, "node-controller", "b", OPTIONS)) {
      assertThat(r1.active() && r2.active()).as("the reconnectors found jetcd's channels").isTrue();
      a.addListener(Leaderships.recorder("a", events));
      b.addListener(Leaderships.recorder("b", events));
      a.start();
      assertThat(a.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      b.start();
      WriteFence term = a.fence().orElseThrow();
      long lease = leaderKey(loadClient).getLease();

      EtcdInventory inventory = new EtcdInventory(loadClient);
      for (int w = 0; w < 2; w++) {
        int writer = w;
        load.add(
            Thread.startVirtualThread(
                () -> {
                  for (int i = 0; loading.get(); i++) {
                    try {
                      inventory.createNode(
                          "w" + writer + "-" + i, TestNodes.spec(2 * i + writer, "p"), null);
                      acknowledged.incrementAndGet();
                    } catch (RuntimeException e) {
                      // a write that failed during the election is not acknowledged
                    }
                  }
                }));
        load.add(
            Thread.startVirtualThread(
                () -> {
                  while (loading.get()) {
                    try {
                      inventory.getNode("w0-1");
                    } catch (RuntimeException e) {
                      // as above
                    }
                  }
                }));
      }

      for (int round = 0; round < 3; round++) {
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.leader() >= 0);
        int victim = round == 0 ? raftLeader : cluster.leader();
        long writesBefore = acknowledged.get();
        cluster.kill(victim);
        // A TTL and a half: a lease lost with the member would have expired, and a step-down
        // would have been heard, by then.
        Thread.sleep(TTL.multipliedBy(3).dividedBy(2).toMillis());
        assertThat(a.isLeader()).as("round %d: a still leads", round).isTrue();
        assertThat(acknowledged.get())
            .as("writes go on without the member")
            .isGreaterThan(writesBefore);
        cluster.member(victim).start().awaitHealthy();
      }

      assertThat(events).as("no step-down, no other leader").containsExactly("a gained");
      assertThat(a.fence()).hasValue(term);
      assertThat(b.isLeader()).isFalse();
      KeyValue after = leaderKey(loadClient);
      assertThat(after.getCreateRevision()).isEqualTo(term.createRevision());
      assertThat(after.getLease()).as("the same lease before and after").isEqualTo(lease);
      assertThat(after.getValue().toString(StandardCharsets.UTF_8)).isEqualTo("a");
    } finally {
      loading.set(false);
      for (Thread t : load) {
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
    }
  }

  static Client tuned(List<String> endpoints) {
    return EtcdClientTuning.apply(Client.builder().endpoints(endpoints.toArray(String[]::new)))
        .build();
  }

  static KeyValue leaderKey(Client client) throws Exception {
    await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .until(() -> !client.getKVClient().get(KEY).get(2, TimeUnit.SECONDS).getKvs().isEmpty());
    return client.getKVClient().get(KEY).get(5, TimeUnit.SECONDS).getKvs().get(0);
  }
}
