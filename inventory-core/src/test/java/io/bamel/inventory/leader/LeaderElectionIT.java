package io.bamel.inventory.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.LeaseOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Leader election against a real etcd: one leader, takeover on resignation and once a dead leader's
 * lease expires, fencing. Waits are generous upper bounds (a loaded machine is slow); none is a
 * claim on speed.
 */
class LeaderElectionIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  static final Duration TTL = Duration.ofSeconds(2);
  static final LeaderElection.Options OPTIONS =
      new LeaderElection.Options(TTL, Duration.ofMillis(300), Duration.ofSeconds(2));

  /** The longest a test waits for leadership to move or settle. */
  static final Duration WAIT = Duration.ofSeconds(30);

  /** A lease that outlives {@link #WAIT}: a takeover within it cannot be the lease expiring. */
  static final LeaderElection.Options LONG_LEASE =
      new LeaderElection.Options(
          WAIT.multipliedBy(2), Duration.ofMillis(300), Duration.ofSeconds(2));

  static LeaderElection candidate(Client client, String name) {
    return candidate(client, name, OPTIONS);
  }

  static LeaderElection candidate(Client client, String name, LeaderElection.Options options) {
    return new LeaderElection(client, "node-controller", name, options);
  }

  static String leaderOf(LeaderElection a, LeaderElection b) {
    return a.isLeader() ? a.identity() : b.isLeader() ? b.identity() : null;
  }

  @Test
  void exactlyOneOfTwoCandidatesLeadsAndTheOtherTakesOverOnResignation() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    LeaderElection a = candidate(ETCD.cluster().client(), "a", LONG_LEASE);
    try (LeaderElection b = candidate(ETCD.cluster().client(), "b", LONG_LEASE)) {
      a.addListener(Leaderships.recorder("a", events));
      b.addListener(Leaderships.recorder("b", events));
      a.start();
      assertThat(a.awaitLeadership(WAIT)).isTrue();
      b.start();
      Thread.sleep(3 * OPTIONS.retryInterval().toMillis());
      assertThat(a.isLeader()).isTrue();
      assertThat(b.isLeader()).isFalse();
      assertThat(b.fence()).isEmpty();
      WriteFence first = a.fence().orElseThrow();

      a.close(); // resigns: the key goes with the lease
      assertThat(a.isLeader()).isFalse();
      // a's lease would hold the key for twice WAIT: b leading within WAIT is the resignation
      assertThat(b.awaitLeadership(WAIT)).isTrue();
      assertThat(b.fence().orElseThrow().createRevision()).isGreaterThan(first.createRevision());
      await().atMost(WAIT).until(() -> events.contains("b gained"));
      assertThat(events).containsSubsequence("a gained", "a lost", "b gained");
    } finally {
      a.close();
    }
  }

  @Test
  void aDeadLeaderIsReplacedOnceItsLeaseExpiresAndItsFencedWritesFail() throws Exception {
    Client inventoryClient = ETCD.cluster().client();
    EtcdInventory inventory = new EtcdInventory(inventoryClient);
    inventory.createNode("n1", TestNodes.spec(1, "p"), null);
    Client doomed = ETCD.cluster().client();
    try (LeaderElection a = candidate(doomed, "a");
        LeaderElection b = candidate(ETCD.cluster().client(), "b")) {
      a.start();
      assertThat(a.awaitLeadership(WAIT)).isTrue();
      b.start();
      WriteFence stale = a.fence().orElseThrow();
      NodeStatus ready =
          NodeStatus.initial(Instant.EPOCH).toBuilder().state(NodeState.READY).build();
      StoreEdits.updateStatus(
          inventory, "n1", s -> ready, NodeEvent.of(Instant.EPOCH, "t", "a writes"), stale);

      doomed.close(); // the process "dies": no resignation, no more keep-alives
      assertThat(b.awaitLeadership(WAIT)).isTrue();
      await().atMost(WAIT).until(() -> !a.isLeader());

      NodeStatus off = ready.toBuilder().state(NodeState.OFF).build();
      assertThatThrownBy(() -> StoreEdits.updateStatus(inventory, "n1", s -> off, null, stale))
          .isInstanceOf(FencedException.class);
      StoreEdits.updateStatus(inventory, "n1", s -> off, null, b.fence().orElseThrow());
      assertThat(inventory.getNode("n1").orElseThrow().state()).isEqualTo(NodeState.OFF);
    }
  }

  @Test
  void aLeaderWhoseKeyIsDeletedStepsDownAndCampaignsAgain() throws Exception {
    Client client = ETCD.cluster().client();
    try (LeaderElection a = candidate(client, "a")) {
      a.start();
      assertThat(a.awaitLeadership(WAIT)).isTrue();
      long term = a.fence().orElseThrow().createRevision();
      client
          .getKVClient()
          .delete(io.etcd.jetcd.ByteSequence.from("/baremetal/leader/node-controller".getBytes()))
          .get();
      await().atMost(WAIT).until(() -> a.fence().map(f -> f.createRevision() > term).orElse(false));
    }
  }

  /**
   * A crashed candidate's lease outlives it by its TTL (twice {@link #WAIT} here); a candidate
   * restarted with the same identity revokes that lease at its first campaign and leads within
   * {@link #WAIT}, where a stranger would wait for the lease to expire.
   */
  @Test
  void aRestartedCandidateRevokesItsPreviousRunsLeaseAndLeads() throws Exception {
    LeaderElection.Options longLease = LONG_LEASE;
    Client observer = ETCD.cluster().client();
    io.etcd.jetcd.ByteSequence key =
        io.etcd.jetcd.ByteSequence.from("/baremetal/leader/node-controller".getBytes());
    Client crashed = ETCD.cluster().client();
    LeaderElection first = new LeaderElection(crashed, "node-controller", "replica-0", longLease);
    first.start();
    assertThat(first.awaitLeadership(WAIT)).isTrue();
    long firstTerm = first.fence().orElseThrow().createRevision();
    long oldLease = observer.getKVClient().get(key).get().getKvs().get(0).getLease();

    crashed.close(); // the process dies: no resignation; its lease lives on for up to 60 s
    assertThat(observer.getLeaseClient().timeToLive(oldLease, LeaseOption.DEFAULT).get().getTTL())
        .isPositive();
    LeaderElection stranger =
        new LeaderElection(ETCD.cluster().client(), "node-controller", "replica-1", longLease);
    try {
      stranger.start();
      Thread.sleep(1_000); // several campaigns: the old lease still holds the key
      assertThat(stranger.isLeader()).isFalse();
    } finally {
      stranger.close();
    }
    try (LeaderElection restarted =
        new LeaderElection(ETCD.cluster().client(), "node-controller", "replica-0", longLease)) {
      restarted.start();
      assertThat(restarted.awaitLeadership(WAIT)).isTrue();
      assertThat(restarted.fence().orElseThrow().createRevision()).isGreaterThan(firstTerm);
      assertThat(observer.getLeaseClient().timeToLive(oldLease, LeaseOption.DEFAULT).get().getTTL())
          .as("revoked, not waited for")
          .isEqualTo(-1);
    } finally {
      first.close();
    }
  }
}
