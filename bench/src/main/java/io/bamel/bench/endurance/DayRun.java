package io.bamel.bench.endurance;

import io.bamel.bench.RawEtcd;
import io.bamel.inventory.maintenance.DefragRule;
import io.bamel.inventory.maintenance.EtcdSpace;
import io.bamel.inventory.maintenance.EtcdSpaceMonitor;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.NodePage;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.node.ReadingsPolicy;
import io.bamel.pool.PoolStatusWrites;
import io.etcd.jetcd.Client;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One simulated day of a fleet against a real etcd of its own, on a simulated clock.
 *
 * <p>Set-up: every node's keys as bamel writes them (spec, pool member key, unique-value index
 * keys) and a history of events at the store's bound (a fleet that has been running for days), a
 * config per pool; then the controllers' first pass (every node's status, the readings of the nodes
 * that are on, every pool's status). etcd is then compacted and defragmented, and its size is the
 * start. Each simulated minute: a periodic sync of every node ({@link NodeLoop}), then four pool
 * controller cycles, 15 s apart ({@link PoolLoop}), each followed by a reconciliation of the nodes
 * it switched (as the node controller's watch would). With compaction on, every 5 simulated minutes
 * etcd is compacted as the etcd-maintenance leader does it ({@link Compactions}). At the end, once
 * the last compaction is applied, etcd is measured again.
 */
final class DayRun {

  static final Instant MIDNIGHT = Instant.parse("2026-03-02T00:00:00Z");
  private static final Duration COMPACTION_INTERVAL = Duration.ofMinutes(5);
  private static final long ETCD_DEFAULT_QUOTA = 2L << 30;
  private static final Duration STORE_TIMEOUT = Duration.ofMinutes(2);

  /**
   * What to simulate.
   *
   * @param nodes the fleet
   * @param pools how many pools share it (round robin)
   * @param minutes how long the day is
   * @param policy when readings are written
   * @param compaction whether etcd is compacted every 5 simulated minutes
   * @param statusWrites when a pool status alone is written
   * @param defrag when a member is defragmented, checked after each compaction (null: never)
   * @param seed the seed of every random choice
   */
  record Settings(
      int nodes,
      int pools,
      int minutes,
      ReadingsPolicy policy,
      boolean compaction,
      PoolStatusWrites statusWrites,
      DefragRule defrag,
      long seed) {}

  /**
   * What the day did.
   *
   * @param start etcd's space at the start
   * @param firstHour etcd's space after the first simulated hour (the start when shorter)
   * @param end etcd's space at the end
   * @param liveEnd etcd's space at the end once compacted to its last revision and defragmented
   *     (what the live keys take, without history or free pages)
   * @param counts the writes
   * @param compactionMillis how long each compaction took etcd, in order
   * @param defragMillis how long each defragmentation took, in order
   * @param hourlyInUse etcd's db in use at the end of each simulated hour, in bytes
   * @param wallMillis how long the simulated day took on the real clock
   */
  record DayReport(
      EtcdSpace start,
      EtcdSpace firstHour,
      EtcdSpace end,
      EtcdSpace liveEnd,
      WriteCounts counts,
      List<Double> compactionMillis,
      List<Double> defragMillis,
      List<Long> hourlyInUse,
      long wallMillis) {}

  private final Settings settings;
  private final WriteCounts counts = new WriteCounts();
  private final List<SimNode> nodes = new ArrayList<>();
  private final List<PoolLoop> pools = new ArrayList<>();

  DayRun(Settings settings) {
    this.settings = settings;
  }

  /** Runs the day on a new etcd; {@code label} prefixes the progress lines. */
  DayReport run(String label) throws Exception {
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client();
        Parallel nodeTasks = new Parallel(8);
        Parallel poolTasks = new Parallel(1);
        EtcdSpaceMonitor space =
            new EtcdSpaceMonitor(
                client.getMaintenanceClient(),
                etcd.endpoints(),
                ETCD_DEFAULT_QUOTA,
                STORE_TIMEOUT)) {
      // A generous deadline: the day measures etcd's size, not its speed, and on a loaded machine
      // a page of 2,000 nodes can take etcd more than the default 10 s.
      EtcdInventory store =
          new EtcdInventory(
              client,
              new EtcdInventory.Options(
                  STORE_TIMEOUT,
                  EtcdInventory.Options.DEFAULTS.eventLimit(),
                  EtcdInventory.Options.DEFAULTS.pageSize()));
      NodeLoop nodeLoop = new NodeLoop(store, settings.policy(), counts);
      load(client, store);
      Instant first = MIDNIGHT.minus(Duration.ofMinutes(1));
      nodeTasks.forEach(nodes, n -> nodeLoop.reconcile(n, first, true, 0.5));
      poolTasks.forEach(pools, pool -> pool.cycle(first));
      EtcdSpace start = compactAndDefragment(etcd, client, store, space);
      System.out.printf(
          "%s: start: %s; db %s MiB, in use %s MiB%n",
          label, counts, mib(start.dbSizeBytes()), mib(start.dbSizeInUseBytes()));
      long wall = System.nanoTime();
      Compactions compactor = new Compactions(client.getKVClient(), counts);
      Defrags defrags =
          settings.defrag() == null
              ? null
              : new Defrags(
                  client.getMaintenanceClient(), etcd.endpoints(), settings.defrag(), counts);
      List<Long> hourly = new ArrayList<>();
      EtcdSpace firstHour = start;
      for (int minute = 0; minute < settings.minutes(); minute++) {
        Instant now = MIDNIGHT.plus(Duration.ofMinutes(minute));
        // The periodic sync of every node, then each pool's four controller cycles, each
        // followed by a reconciliation of the nodes it switched (pools share no node: one task
        // each). The real controllers make the same writes spread over the minute.
        nodeTasks.forEach(
            nodes, n -> nodeLoop.reconcile(n, now, true, pools.get(n.pool).utilization()));
        poolTasks.forEach(pools, pool -> cycles(pool, nodeLoop, now));
        Instant next = now.plus(Duration.ofMinutes(1));
        if (settings.compaction() && next.getEpochSecond() % COMPACTION_INTERVAL.toSeconds() == 0) {
          compactor.tick(store.currentRevision());
          if (defrags != null) {
            compactor.finish();
            defrags
                .check(next)
                .ifPresent(
                    m ->
                        System.out.printf(
                            "%s: %s defragmented %s (in use %s MiB before)%n",
                            label, next, m.endpoint(), mib(m.dbSizeInUseBytes())));
          }
        }
        if (minute + 1 == 60) {
          compactor.finish();
          firstHour = settle(space);
        }
        if ((minute + 1) % 60 == 0) {
          EtcdSpace now2 = space.poll();
          hourly.add(now2.dbSizeInUseBytes());
          System.out.printf(
              "%s: %02d:00 %s; db %s MiB, in use %s MiB; %.0f s%n",
              label,
              (minute + 1) / 60,
              counts,
              mib(now2.dbSizeBytes()),
              mib(now2.dbSizeInUseBytes()),
              (System.nanoTime() - wall) / 1e9);
        }
      }
      compactor.finish();
      long wallMillis = (System.nanoTime() - wall) / 1_000_000;
      EtcdSpace end = settle(space);
      System.out.printf(
          "%s: end: %s; db %s MiB, in use %s MiB; %.0f s%n",
          label, counts, mib(end.dbSizeBytes()), mib(end.dbSizeInUseBytes()), wallMillis / 1e3);
      EtcdSpace liveEnd = compactAndDefragment(etcd, client, store, space);
      System.out.printf(
          "%s: end, compacted to the last revision and defragmented: db %s MiB%n",
          label, mib(liveEnd.dbSizeBytes()));
      return new DayReport(
          start,
          firstHour,
          end,
          liveEnd,
          counts,
          compactor.millis(),
          defrags == null ? List.of() : defrags.millis(),
          hourly,
          wallMillis);
    }
  }

  /** Compacts etcd to its current revision, defragments it and measures it. */
  private static EtcdSpace compactAndDefragment(
      EtcdCluster etcd, Client client, EtcdInventory store, EtcdSpaceMonitor space)
      throws Exception {
    etcd.compact(store.currentRevision());
    for (String endpoint : etcd.endpoints()) {
      client.getMaintenanceClient().defragmentMember(endpoint).get(5, TimeUnit.MINUTES);
    }
    return settle(space);
  }

  /** The four pool controller cycles of the minute from {@code now}. */
  private static void cycles(PoolLoop pool, NodeLoop nodeLoop, Instant now) {
    for (int cycle = 0; cycle < 4; cycle++) {
      Instant at = now.plusSeconds(15L * cycle);
      for (SimNode node : pool.cycle(at)) {
        nodeLoop.reconcile(node, at, false, 0);
      }
    }
  }

  /** Writes the fleet's keys as bamel lays them out, and builds the simulation's view of them. */
  private void load(Client client, EtcdInventory store) throws Exception {
    int n = settings.nodes();
    int poolCount = settings.pools();
    List<List<SimNode>> members = new ArrayList<>();
    List<DailyLoad> loads = new ArrayList<>();
    int[] onPerPool = new int[poolCount];
    for (int p = 0; p < poolCount; p++) {
      members.add(new ArrayList<>());
      DailyLoad load = DailyLoad.forPool(p, settings.seed());
      loads.add(load);
      int size = n / poolCount + (p < n % poolCount ? 1 : 0);
      double demand = load.at(-1) * size;
      onPerPool[p] = Math.min(size, Math.max(size / 10, (int) Math.ceil(demand / PoolScaler.AIM)));
    }
    int eventLimit = store.options().eventLimit();
    List<Map.Entry<String, byte[]>> kvs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int p = i % poolCount;
      String id = TestNodes.id(i);
      boolean on = members.get(p).size() < onPerPool[p];
      NodeSpec spec =
          TestNodes.spec(i, poolName(p)).toBuilder()
              .desiredPower(on ? DesiredPower.ON : DesiredPower.OFF)
              .build();
      List<NodeEvent> history = history(id, eventLimit);
      kvs.addAll(RawEtcd.newNodeKeys(id, spec, history.get(0)));
      for (int seq = 2; seq <= history.size(); seq++) {
        kvs.add(
            Map.entry(Keys.nodeEvent(id, seq), Codec.encode(history.get(seq - 1).withSeq(seq))));
      }
      SimNode node =
          new SimNode(
              id, p, new Machine(id, on, new SplittableRandom(settings.seed() * 7919 + i)), spec);
      members.get(p).add(node);
      nodes.add(node);
      if (kvs.size() >= 20_000) {
        RawEtcd.putAll(client, kvs, 128);
        kvs.clear();
      }
    }
    for (int p = 0; p < poolCount; p++) {
      kvs.add(
          Map.entry(
              Keys.poolConfig(poolName(p)),
              Codec.encode(
                  PoolConfig.builder().minNodes(Math.max(1, members.get(p).size() / 10)).build())));
    }
    RawEtcd.putAll(client, kvs, 128);
    resolveSpecRevisions(store);
    for (int p = 0; p < poolCount; p++) {
      pools.add(
          new PoolLoop(
              poolName(p),
              members.get(p),
              loads.get(p),
              store,
              counts,
              MIDNIGHT,
              settings.statusWrites()));
    }
  }

  /** The spec revisions as etcd holds them (pool decisions are guarded by them). */
  private void resolveSpecRevisions(EtcdInventory store) {
    String after = null;
    int i = 0;
    Map<String, SimNode> byId = new HashMap<>();
    nodes.forEach(n -> byId.put(n.id, n));
    do {
      NodePage page = store.listNodes(after, 2_000, 0);
      for (Node node : page.items()) {
        SimNode sim = byId.get(node.id());
        if (sim != null) {
          sim.specRevision = node.specRevision();
          i++;
        }
      }
      after = page.next();
    } while (after != null);
    if (i != nodes.size()) {
      throw new IllegalStateException("read " + i + " of " + nodes.size() + " nodes back");
    }
  }

  /**
   * Yesterday's events of a node, oldest first, as many as the store keeps: power cycles as the
   * controllers record them (a pool decision, then the node controller's transitions).
   */
  private static List<NodeEvent> history(String id, int count) {
    Instant t = MIDNIGHT.minus(Duration.ofHours(20));
    List<NodeEvent> events = new ArrayList<>(count);
    while (events.size() < count) {
      events.add(
          NodeEvent.change(
              t,
              "scale-up",
              "pool sets power on: utilization: 0.74 above 0.70",
              "pool-controller",
              null));
      events.add(
          NodeEvent.transition(
              t, NodeState.OFF, NodeState.POWERING_ON, "desired on", "power-on", "requested"));
      events.add(
          NodeEvent.transition(
              t.plusSeconds(60),
              NodeState.POWERING_ON,
              NodeState.JOINING,
              "BMC reports on",
              null,
              "ok"));
      events.add(
          NodeEvent.transition(
              t.plusSeconds(240),
              NodeState.JOINING,
              NodeState.READY,
              "Kubernetes node " + id + " is Ready",
              "admit",
              "ok"));
      t = t.plus(Duration.ofHours(4));
      events.add(
          NodeEvent.change(
              t,
              "scale-down",
              "pool sets power off: utilization: 0.21 below 0.30 for 10m",
              "pool-controller",
              null));
      events.add(
          NodeEvent.transition(
              t, NodeState.READY, NodeState.DRAINING, "desired off", "drain", "ok"));
      events.add(
          NodeEvent.transition(
              t.plusSeconds(60),
              NodeState.DRAINING,
              NodeState.POWERING_OFF,
              "drained",
              "power-off",
              "requested"));
      events.add(
          NodeEvent.transition(
              t.plusSeconds(150),
              NodeState.POWERING_OFF,
              NodeState.OFF,
              "BMC reports off",
              null,
              "ok"));
      t = t.plus(Duration.ofHours(4));
    }
    return events.subList(0, count);
  }

  static String poolName(int p) {
    return String.format(Locale.ROOT, "pool-%03d", p);
  }

  /**
   * etcd's space once a pending compaction has been applied: measured every half second until two
   * measurements in a row agree within 0.1 % (at most 30 s).
   */
  private static EtcdSpace settle(EtcdSpaceMonitor space) throws InterruptedException {
    EtcdSpace last = space.poll();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      Thread.sleep(500);
      EtcdSpace next = space.poll();
      if (Math.abs(next.dbSizeInUseBytes() - last.dbSizeInUseBytes())
              <= last.dbSizeInUseBytes() / 1000
          && next.dbSizeBytes() == last.dbSizeBytes()) {
        return next;
      }
      last = next;
    }
    return last;
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (1024.0 * 1024.0));
  }
}
