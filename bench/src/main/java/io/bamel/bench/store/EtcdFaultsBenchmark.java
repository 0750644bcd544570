package io.bamel.bench.store;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.inventory.api.ApiOptions;
import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.connection.EtcdClientTuning;
import io.bamel.inventory.connection.EtcdReconnector;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.LeadershipListener;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.inventory.testing.HttpProbe;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code etcd-faults}: how bamel rides out etcd's faults on a three-member cluster, each figure
 * against etcd's own in the same run.
 *
 * <ul>
 *   <li>Recovery after a full outage of 30 s and of {@code -Dbench.etcdFaultsLongOutage} seconds
 *       (180 by default; a tenth in a quick run): every member stopped, then all started again;
 *       etcd's recovery is from the start until every member is healthy, bamel's until {@code
 *       /readyz} of an API (tuned client, {@link EtcdReconnector}, cache, store, as {@code bamel
 *       server} wires them) answers 200 again. Target: bamel ready within 3 s of etcd.
 *   <li>Leaderless time on member kills: two candidates of {@code node-controller} (shipped
 *       election settings, 15 s lease), the Raft leader killed three times (the first time while
 *       the leading candidate's client is connected to it), 20 s watched after each kill: the time
 *       no candidate led, against etcd's own leaderless time (until a new Raft leader). Target: 0.
 *   <li>Takeover after a crash (information): a candidate restarted with the same identity until it
 *       leads, against a standby of another identity waiting for the crashed leader's lease.
 * </ul>
 */
public final class EtcdFaultsBenchmark implements Benchmark {

  private static final String NAME = "etcd-faults";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    List<BenchResult> rows = new ArrayList<>();
    int shortOutage = context.quick() ? 3 : 30;
    int longOutage = context.size("etcdFaultsLongOutage", 180);
    try (EtcdCluster cluster = EtcdCluster.start(3)) {
      rows.add(outage(cluster, Duration.ofSeconds(shortOutage)));
      rows.add(outage(cluster, Duration.ofSeconds(longOutage)));
      rows.add(memberKills(cluster));
      rows.add(takeover(cluster));
    }
    return rows;
  }

  // ---------------------------------------------------------------- full outage

  private BenchResult outage(EtcdCluster cluster, Duration length) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    try (Client client = tuned(cluster.endpoints());
        EtcdReconnector reconnects = new EtcdReconnector(client, cluster.endpoints()).start();
        InventoryCache cache = new InventoryCache(client).start()) {
      requireActive(reconnects);
      cache.awaitSynced(Duration.ofSeconds(30));
      InventoryApi api =
          InventoryApi.create(
                  new EtcdInventory(client),
                  cache,
                  TokenStore.empty(),
                  ApiOptions.DEFAULTS,
                  new PrometheusRegistry())
              .start("127.0.0.1", 0);
      try {
        String readyz = "http://127.0.0.1:" + api.port() + "/readyz";
        waitUntil(() -> HttpProbe.status(http, readyz) == 200, Duration.ofSeconds(30));
        for (int i = 0; i < cluster.size(); i++) {
          cluster.stop(i);
        }
        Thread.sleep(length.toMillis());
        long start = System.nanoTime();
        for (int i = 0; i < cluster.size(); i++) {
          cluster.member(i).start();
        }
        for (int i = 0; i < cluster.size(); i++) {
          cluster.member(i).awaitHealthy();
        }
        double etcd = (System.nanoTime() - start) / 1e9;
        waitUntil(() -> HttpProbe.status(http, readyz) == 200, Duration.ofMinutes(5));
        double bamel = (System.nanoTime() - start) / 1e9;
        double after = bamel - etcd;
        return new BenchResult(
            NAME,
            String.format(
                Locale.ROOT,
                "after a %d s outage: /readyz 200 vs every member healthy, from their restart"
                    + " (ratio: s after etcd)",
                length.toSeconds()),
            bamel,
            etcd,
            "s",
            after,
            "<= 3 s after etcd",
            after <= 3.0);
      } finally {
        api.close();
      }
    }
  }

  // ---------------------------------------------------------------- member kills

  private BenchResult memberKills(EtcdCluster cluster) throws Exception {
    int raftLeader = awaitRaftLeader(cluster);
    List<String> endpoints = new ArrayList<>(cluster.endpoints());
    endpoints.add(0, endpoints.remove(raftLeader)); // the leader's client starts on the Raft leader
    Leaderless leaderless = new Leaderless();
    double etcdLeaderless = 0;
    try (Client ca = tuned(endpoints);
        Client cb = tuned(cluster.endpoints());
        EtcdReconnector ra = new EtcdReconnector(ca, endpoints).start();
        EtcdReconnector rb = new EtcdReconnector(cb, cluster.endpoints()).start();
        LeaderElection a = election(ca, "bench-a");
        LeaderElection b = election(cb, "bench-b")) {
      requireActive(ra);
      requireActive(rb);
      a.addListener(leaderless);
      b.addListener(leaderless);
      a.start();
      a.awaitLeadership(Duration.ofSeconds(30));
      b.start();
      for (int round = 0; round < 3; round++) {
        int victim = round == 0 ? raftLeader : awaitRaftLeader(cluster);
        long killed = System.nanoTime();
        cluster.kill(victim);
        awaitRaftLeader(cluster);
        etcdLeaderless += (System.nanoTime() - killed) / 1e9;
        Thread.sleep(20_000);
        cluster.member(victim).start().awaitHealthy();
      }
      double bamel = leaderless.total();
      return new BenchResult(
          NAME,
          "3 kills of the Raft leader: time no candidate led vs etcd without a Raft leader"
              + " (ratio: bamel's s)",
          bamel,
          etcdLeaderless,
          "s",
          bamel,
          "0 s",
          bamel == 0);
    }
  }

  /** Sums the time between a candidate's loss and the next gain. */
  private static final class Leaderless implements LeadershipListener {
    private final AtomicLong since = new AtomicLong(-1);
    private final AtomicLong total = new AtomicLong();

    @Override
    public void gained(WriteFence fence) {
      long lost = since.getAndSet(-1);
      if (lost >= 0) {
        total.addAndGet(System.nanoTime() - lost);
      }
    }

    @Override
    public void lost() {
      since.compareAndSet(-1, System.nanoTime());
    }

    double total() {
      long open = since.get();
      return (total.get() + (open >= 0 ? System.nanoTime() - open : 0)) / 1e9;
    }
  }

  // ---------------------------------------------------------------- takeover after a crash

  private BenchResult takeover(EtcdCluster cluster) throws Exception {
    Client first = tuned(cluster.endpoints());
    Client second = tuned(cluster.endpoints());
    LeaderElection crashing = election(first, "bench-0").start();
    crashing.awaitLeadership(Duration.ofSeconds(30));
    double stranger;
    double restarted;
    try (LeaderElection standby = election(second, "bench-1").start()) {
      long crash = System.nanoTime();
      first.close(); // no resignation: the lease lives on until its TTL
      standby.awaitLeadership(Duration.ofSeconds(60));
      stranger = (System.nanoTime() - crash) / 1e9;
      crash = System.nanoTime();
      second.close(); // the standby, leading now, crashes in turn; it restarts at once
      try (Client third = tuned(cluster.endpoints());
          LeaderElection again = election(third, "bench-1").start()) {
        again.awaitLeadership(Duration.ofSeconds(60));
        restarted = (System.nanoTime() - crash) / 1e9;
      }
    } finally {
      crashing.close();
    }
    return new BenchResult(
        NAME,
        "takeover after a crash: the same instance restarted vs a standby waiting for the lease"
            + " (information)",
        restarted,
        stranger,
        "s",
        restarted / stranger,
        "info",
        true);
  }

  // ---------------------------------------------------------------- helpers

  private static LeaderElection election(Client client, String identity) {
    return new LeaderElection(client, "node-controller", identity, LeaderElection.Options.DEFAULTS);
  }

  private static void requireActive(EtcdReconnector reconnector) {
    if (!reconnector.active()) {
      throw new IllegalStateException("the reconnector did not find jetcd's gRPC channel");
    }
  }

  private static Client tuned(List<String> endpoints) {
    return EtcdClientTuning.apply(Client.builder().endpoints(endpoints.toArray(String[]::new)))
        .build();
  }

  private static int awaitRaftLeader(EtcdCluster cluster) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        int leader = cluster.leader();
        if (leader >= 0) {
          return leader;
        }
      } catch (RuntimeException e) {
        // a member is down: ask again
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException("no Raft leader within 30 s");
  }

  private interface Check {
    boolean ok() throws Exception;
  }

  private static void waitUntil(Check check, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!check.ok()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not reached within " + timeout);
      }
      Thread.sleep(20);
    }
  }
}
