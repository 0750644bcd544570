package io.bamel.bench.node;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.sharding.HashRing;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.node.NodeControllerConfig;
import io.bamel.power.BmcPowerState;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A periodic BMC polling pass of a powered-on fleet of simulated Redfish BMCs that answer every
 * request after 100 ms, made by one node-controller replica and by three sharded replicas (the real
 * {@link ReplicaRegistry} on the bench etcd and the {@link HashRing}; all in this JVM, each with
 * its own etcd client, cache and driver), against the ideal {@code nodes x 1 read x latency /
 * (replicas x bmcConcurrency)}. Target: at most 1.3 for each (issue 15's row c: 100,000 nodes at
 * 100 ms on 1 and on 3 replicas).
 *
 * <p>What the target is about: that N replicas finish a pass in about 1/N of the time when the BMCs
 * are what a pass waits for, as in production, where each replica has cores of its own. At 100 ms
 * ({@code -Dbench.bmcPassLatencyMs}) three replicas make {@code 3 x 64 / 100 ms}, 1,920 reads a
 * second, in one JVM with the simulated BMCs on the machine's cores; before the Redfish driver sent
 * periodic reads on connections of their own (2026-11-26), OkHttp's task runner took most of that
 * CPU and the pass measured the machine, not the sharding (from 2026-11-25 to then the default was
 * 5,000 nodes at 1 s). The CPU rows show which one a run measured: the bench JVM's CPU time per
 * read in the timed pass against the CPU a read may take before the ideal rate fills the cores
 * (below half: latency-bound), with the share of the cores the JVM and the whole machine (all
 * processes, {@code /proc/stat}) used and the load average, since on a shared machine other
 * processes may hold the cores.
 *
 * <p>100,000 nodes by default ({@code -Dbench.bmcPassNodes}): one replica's pass is 156 s ideal,
 * and the whole benchmark takes about 25 minutes, most of it the controllers' first contact with
 * 100,000 new BMCs (discovery, login, a power draw each); {@code -Dbench.bmcPassNodes=10000} takes
 * about 5; {@code -Dbench.bmcPassReplicas=1} (or {@code 3}) runs one configuration only. Everything
 * is the shipped default (64 BMC calls at once per replica, the 15 s replica lease) but the sync
 * interval, its jitter and the draw interval: the interval is twice the configuration's ideal pass,
 * at least 60 s (20 s in a quick run), unless {@code -Dbench.bmcPassSyncSeconds} says otherwise, so
 * that a controller's start-up and first pass end before its second pass and that a timed pass ends
 * before the next begins; no jitter, so that the three replicas' passes overlap. Each
 * configuration: the controllers start with the BMCs answering at once; the first sync pass reads
 * every node's state and power draw (the draw is due at a controller's first pass) at zero latency;
 * then every BMC answers after the latency and the next pass is timed: one power-state read per
 * node, no draw. A replica's pass time runs from the start of its first read to the end of its
 * last; the fleet's is the slowest replica's, whose share of the ring is reported too.
 *
 * <p>No draw falls due again before the timed pass ends ({@link #drawInterval}: longer than the
 * harness waits for both passes). With the shipped 10 minutes, a first pass that outlasted two sync
 * intervals (a slow start-up, a busy machine) spread its draws over more than an interval, the
 * timed pass was the third or a later one, and the draws read early in the first pass were due
 * again in it: BMC calls its ideal does not count, reported as nodes not read exactly once. The
 * nodes are stored inspected ({@link #settle}), so that a start-up reads each BMC once and inspects
 * none, as in the three-replica configuration, which starts from the first one's inspections.
 *
 * <p>Checked and reported: in the timed pass every node was read exactly once, by the replica the
 * ring gives it, and nothing was written to etcd. With three replicas, one is then cut off from
 * etcd without a goodbye (its client closed, as a SIGKILL or a partition would): reported are the
 * time until both survivors' rings no longer hold it (documented: within the lease TTL) and until
 * each of its nodes has been read by the survivor that now owns it.
 */
public final class BmcPassBenchmark implements Benchmark {

  private static final Logger LOG = LoggerFactory.getLogger(BmcPassBenchmark.class);
  private static final int LATENCY_MILLIS = 100;
  private static final int MIN_SYNC_SECONDS = 60;
  private static final int CONCURRENCY = NodeControllerConfig.DEFAULTS.bmcConcurrency();
  private static final Duration TTL = ReplicaRegistry.Options.DEFAULTS.ttl();
  private static final int SETTLE_IN_FLIGHT = 16;

  @Override
  public String name() {
    return "bmc-pass";
  }

  /** The ideal pass: every read takes the latency, {@code replicas x concurrency} at a time. */
  static double idealMillis(
      int nodes, int readsPerNode, int replicas, int concurrency, Duration latency) {
    return (double) nodes * readsPerNode * latency.toMillis() / ((double) replicas * concurrency);
  }

  /**
   * The sync interval of a configuration: twice its ideal pass, at least {@code floor}, so that a
   * timed pass up to about 1.8 times its ideal (the interval's 10 % jitter is off) ends before the
   * next pass begins, and the first pass (without latency) ends before the timed one.
   */
  static Duration syncInterval(double idealMillis, int floorSeconds) {
    return Duration.ofSeconds(Math.max(floorSeconds, (long) Math.ceil(2 * idealMillis / 1000)));
  }

  /**
   * The configurations to run, from {@code -Dbench.bmcPassReplicas}: {@code 1} (one replica),
   * {@code 3} (three sharded replicas and the cut) or both, the default ({@code null}, or {@code
   * 1,3}).
   */
  static Set<Integer> configurations(String property) {
    if (property == null || property.isBlank()) {
      return Set.of(1, 3);
    }
    Set<Integer> chosen = new java.util.TreeSet<>();
    for (String part : property.split(",")) {
      switch (part.trim()) {
        case "1" -> chosen.add(1);
        case "3" -> chosen.add(3);
        default ->
            throw new IllegalArgumentException(
                "bench.bmcPassReplicas: 1, 3 or 1,3 (the replica counts to run), not '"
                    + property
                    + "'");
      }
    }
    return Set.copyOf(chosen);
  }

  /**
   * The replicas' draw interval: the shipped one, or longer than the harness waits for a first pass
   * and a timed pass together, so that no draw the first pass read is due again before the timed
   * pass ends, however long the start-up took on the machine.
   */
  static Duration drawInterval(Duration firstPassBound, Duration timedPassBound) {
    Duration both = firstPassBound.plus(timedPassBound);
    Duration shipped = NodeControllerConfig.DEFAULTS.readingsInterval();
    return both.compareTo(shipped) > 0 ? both : shipped;
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int nodes = context.size("bmcPassNodes", 100_000);
    Set<Integer> configurations = configurations(System.getProperty("bench.bmcPassReplicas"));
    Duration latency =
        Duration.ofMillis(Integer.getInteger("bench.bmcPassLatencyMs", LATENCY_MILLIS));
    Integer syncSeconds = Integer.getInteger("bench.bmcPassSyncSeconds");
    int floor = context.quick() ? 20 : MIN_SYNC_SECONDS;
    Duration sync1 =
        syncSeconds != null
            ? Duration.ofSeconds(syncSeconds)
            : syncInterval(idealMillis(nodes, 1, 1, CONCURRENCY, latency), floor);
    Duration sync3 =
        syncSeconds != null
            ? Duration.ofSeconds(syncSeconds)
            : syncInterval(idealMillis(nodes, 1, 3, CONCURRENCY, latency), floor);
    // the simulated BMCs, the replicas' caches and drivers share this JVM's heap, which make bench
    // takes from MAVEN_OPTS: at 100,000 nodes the passes depend on it, so the log says it
    LOG.info(
        "bmc-pass: {} nodes, BMCs answering after {} ms, sync interval {} s (1 replica) and {} s"
            + " (3 replicas); bench JVM heap at most {} MiB",
        nodes,
        latency.toMillis(),
        sync1.toSeconds(),
        sync3.toSeconds(),
        Runtime.getRuntime().maxMemory() / (1024 * 1024));
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client();
        SimulatedBmcFleet fleet = SimulatedBmcFleet.start(false)) {
      List<String> ids = load(fleet, client, nodes);
      Pass one =
          configurations.contains(1) ? pass(etcd, fleet, ids, 1, sync1, latency, false) : null;
      Pass three =
          configurations.contains(3) ? pass(etcd, fleet, ids, 3, sync3, latency, true) : null;
      return rows(nodes, latency, one, three);
    }
  }

  /** The rows of the configurations run ({@code one} or {@code three} null when not run). */
  private List<BenchResult> rows(int nodes, Duration latency, Pass one, Pass three) {
    double ideal1 = idealMillis(nodes, 1, 1, CONCURRENCY, latency);
    double ideal3 = idealMillis(nodes, 1, 3, CONCURRENCY, latency);
    String ms = String.format(Locale.ROOT, "%,d ms", latency.toMillis());
    double fairShare = nodes / 3.0;
    List<Pass> run = java.util.stream.Stream.of(one, three).filter(Objects::nonNull).toList();
    int misread = run.stream().mapToInt(Pass::misread).sum();
    long written = run.stream().mapToLong(Pass::written).sum();
    List<BenchResult> rows = new ArrayList<>();
    if (one != null) {
      rows.add(
          PassRows.onePass(name(), "nodes", "", nodes, latency, CONCURRENCY, one.millis(), ideal1));
    }
    if (three != null) {
      rows.add(
          BenchResult.ratioAtMost(
              name(),
              String.format(
                  Locale.ROOT,
                  "same pass, 3 sharded replicas, slowest (vs ideal %,d x %s / (3 x %d))",
                  nodes,
                  ms,
                  CONCURRENCY),
              three.millis(),
              ideal3,
              "ms",
              PassRows.PASS_TARGET));
    }
    if (one != null && three != null) {
      rows.add(
          new BenchResult(
              name(),
              "speed-up: 1 replica's pass vs the 3 replicas' slowest (vs 3) (info)",
              one.millis() / three.millis(),
              3,
              "x",
              one.millis() / three.millis() / 3,
              "info",
              true));
    }
    if (one != null) {
      rows.add(cpuRow("1 replica", 1, latency, one));
    }
    if (three != null) {
      rows.add(cpuRow("3 replicas", 3, latency, three));
      rows.add(
          new BenchResult(
              name(),
              "3 replicas: nodes of the slowest replica's share vs a third (info)",
              three.slowestShare(),
              fairShare,
              "nodes",
              three.slowestShare() / fairShare,
              "info",
              true));
    }
    rows.add(
        BenchResult.none(
            name(),
            "timed passes: nodes not read exactly once, by their owner (of "
                + String.format(Locale.ROOT, "%,d", run.size() * nodes)
                + ")",
            misread,
            "nodes"));
    rows.add(
        BenchResult.none(
            name(),
            "etcd revisions written during the timed passes ("
                + (one != null && three != null
                    ? "1 replica + 3 replicas"
                    : one != null ? "1 replica" : "3 replicas")
                + ")",
            written,
            "revisions"));
    if (three != null) {
      rows.add(
          new BenchResult(
              name(),
              "a replica cut off: ring without it on both survivors (vs lease TTL)",
              three.ringMillis(),
              TTL.toMillis(),
              "ms",
              three.ringMillis() / TTL.toMillis(),
              "<= 1 (within the TTL)",
              three.ringMillis() <= TTL.toMillis()));
      rows.add(
          new BenchResult(
              name(),
              String.format(
                  Locale.ROOT,
                  "same cut: its %,d nodes each read by their new owner (vs lease TTL) (info)",
                  three.cutShare()),
              three.takeoverMillis(),
              TTL.toMillis(),
              "ms",
              three.takeoverMillis() / TTL.toMillis(),
              "info",
              three.takenOver()));
    }
    return rows;
  }

  /** The CPU row of one configuration ({@link PassRows#cpu}). */
  private BenchResult cpuRow(String which, int replicas, Duration latency, Pass pass) {
    return PassRows.cpu(
        name(),
        which + ": ",
        pass.reads(),
        replicas,
        latency,
        CONCURRENCY,
        pass.cpuFrom(),
        pass.cpuTo());
  }

  /**
   * One configuration's figures.
   *
   * @param written etcd revisions written during the timed pass (by anyone)
   * @param millis the slowest replica's timed pass
   * @param slowestShare the nodes that replica owns
   * @param misread nodes not read exactly once by their owner in the timed pass
   * @param ringMillis after a cut: until the survivors' rings dropped the cut replica (0: no cut)
   * @param takeoverMillis after a cut: until each of its nodes was read by its new owner
   * @param cutShare the nodes the cut replica owned
   * @param takenOver whether every one of them has exactly one surviving owner
   * @param reads power-state reads made in the timed pass (all replicas)
   * @param windowMillis from the first read's start to the last read's end, over all replicas
   * @param cpuFrom the CPU sample taken when that window began
   * @param cpuTo the CPU sample taken when it ended
   */
  private record Pass(
      long written,
      double millis,
      int slowestShare,
      int misread,
      double ringMillis,
      double takeoverMillis,
      int cutShare,
      boolean takenOver,
      long reads,
      double windowMillis,
      CpuSample cpuFrom,
      CpuSample cpuTo) {}

  private static List<String> load(SimulatedBmcFleet fleet, Client client, int nodes)
      throws Exception {
    EtcdInventory store = new EtcdInventory(client);
    SimSystemConfig on = SimSystemConfig.defaults().withInitialState(BmcPowerState.ON);
    List<String> ids = new ArrayList<>(nodes);
    List<BatchItem> items = new ArrayList<>(nodes);
    for (SimulatedSystem s : fleet.addSystems(nodes, "node-", on)) {
      ids.add(s.id());
      items.add(
          BatchItem.upsert(s.id(), SimulatedNodeSpecs.of(fleet, s.id(), DesiredPower.ON), null));
    }
    long start = System.nanoTime();
    store.upsertAll(items);
    settle(client, ids, inspected(Instant.now()));
    LOG.info("bmc-pass: {} nodes loaded in {} ms", nodes, (System.nanoTime() - start) / 1_000_000);
    return ids;
  }

  /**
   * An inspection as a controller stores it, without facts: all the node controller looks at is
   * that one was made ({@code status.hardware} present: no first-contact inspection is due).
   */
  static NodeHardware inspected(Instant at) {
    return new NodeHardware(
        at, null, null, null, null, null, null, null, null, null, null, Map.of());
  }

  /**
   * Writes each node's status and readings as a controller that has been running leaves them (ready
   * and on, {@code hardware} inspected, the simulator's draw read just now), so that the replicas'
   * start-up has nothing to write and nothing to inspect: on a busy two-core machine 40,000 status
   * and readings writes through the controller took longer than the passes themselves, and a
   * start-up that inspects every BMC can outlast two sync intervals (see the class comment). Raw
   * transactions of 128 puts, a few under way at a time.
   */
  static void settle(Client client, List<String> ids, NodeHardware hardware) throws Exception {
    Instant now = Instant.now();
    byte[] status =
        Codec.encode(
            NodeStatus.builder()
                .state(NodeState.READY)
                .stateSince(now)
                .observedPower(ObservedPower.ON)
                .bmcReachable(true)
                .hardware(hardware)
                .build());
    byte[] readings =
        Codec.encode(new NodeReadings(now, SimSystemConfig.defaults().watts(), null, null));
    List<CompletableFuture<TxnResponse>> txns = new ArrayList<>();
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      ops.add(put(Keys.nodeStatus(id), status));
      ops.add(put(Keys.nodeReadings(id), readings));
      if (ops.size() == 128 || i == ids.size() - 1) {
        txns.add(client.getKVClient().txn().Then(ops.toArray(Op[]::new)).commit());
        ops = new ArrayList<>();
        if (txns.size() >= SETTLE_IN_FLIGHT) {
          // bounded: thousands of proposals at once outlast etcd's request timeout on a busy
          // machine
          txns.remove(0).get(5, TimeUnit.MINUTES);
        }
      }
    }
    CompletableFuture.allOf(txns.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
  }

  private static Op put(String key, byte[] value) {
    return Op.put(
        ByteSequence.from(key, StandardCharsets.UTF_8),
        ByteSequence.from(value),
        PutOption.DEFAULT);
  }

  private Pass pass(
      EtcdCluster etcd,
      SimulatedBmcFleet fleet,
      List<String> ids,
      int count,
      Duration sync,
      Duration latency,
      boolean cut)
      throws Exception {
    fleet.systems().forEach(s -> s.faults().latency(Duration.ZERO));
    Map<String, String> address = new HashMap<>();
    ids.forEach(id -> address.put(id, fleet.address(id)));
    List<PassReplica> replicas = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        replicas.add(new PassReplica(etcd, "bench-" + (char) ('a' + i)));
      }
      Set<String> names = replicas.stream().map(r -> r.name).collect(Collectors.toSet());
      await(
          () -> replicas.stream().allMatch(r -> r.registry.ring().members().equals(names)),
          Duration.ofMinutes(1),
          "every replica on the ring");
      for (PassReplica r : replicas) {
        r.cache.awaitSynced(Duration.ofMinutes(2));
      }
      HashRing ring = replicas.get(0).registry.ring();
      Map<PassReplica, List<String>> owned = new HashMap<>();
      for (PassReplica r : replicas) {
        owned.put(r, ids.stream().filter(id -> ring.owns(r.name, id)).toList());
      }
      Duration firstPassBound = sync.multipliedBy(4).plus(Duration.ofMinutes(10));
      Duration limit =
          sync.multipliedBy(3)
              .plus(
                  Duration.ofMillis(
                      (long) (10 * idealMillis(ids.size(), 1, 1, CONCURRENCY, latency))));
      Duration drawInterval = drawInterval(firstPassBound, limit);
      long started = System.nanoTime();
      replicas.forEach(r -> r.startController(sync, drawInterval));

      // The first sync pass, without latency: every node's state and (due at a first pass) draw.
      await(
          () -> ids.stream().allMatch(id -> draws(replicas, address.get(id)) >= 1),
          firstPassBound,
          "the first pass (power draws read)",
          () ->
              ids.stream().filter(id -> draws(replicas, address.get(id)) >= 1).count()
                  + " draws read");
      awaitQuiet(replicas);
      LOG.info(
          "bmc-pass: {} replica(s): start-up and first pass done {} ms after start",
          count,
          (System.nanoTime() - started) / 1_000_000);

      // The timed pass: every BMC answers after the latency.
      fleet.systems().forEach(s -> s.faults().latency(latency));
      replicas.forEach(r -> r.recorder.reset());
      long revisionBefore = revision(replicas.get(0).client);
      Map<PassReplica, Double> passMillis = new HashMap<>();
      CpuSample[] cpu = new CpuSample[2];
      await(
          () -> {
            if (cpu[0] == null
                && replicas.stream().anyMatch(r -> r.recorder.firstStart() != Long.MAX_VALUE)) {
              cpu[0] = CpuSample.now();
            }
            for (PassReplica r : replicas) {
              if (!passMillis.containsKey(r)
                  && r.recorder.nodesRead() >= owned.get(r).size()
                  && owned.get(r).stream().allMatch(id -> r.recorder.reads(address.get(id)) >= 1)) {
                passMillis.put(r, (r.recorder.lastEnd() - r.recorder.firstStart()) / 1e6);
              }
            }
            if (passMillis.size() == replicas.size()) {
              cpu[1] = CpuSample.now();
              return true;
            }
            return false;
          },
          limit,
          "the timed pass",
          () -> passMillis.size() + " replicas done");
      long written = revision(replicas.get(0).client) - revisionBefore;
      long reads = 0;
      for (String id : ids) {
        for (PassReplica r : replicas) {
          reads += r.recorder.reads(address.get(id));
        }
      }
      double windowMillis =
          (replicas.stream().mapToLong(r -> r.recorder.lastEnd()).max().getAsLong()
                  - replicas.stream().mapToLong(r -> r.recorder.firstStart()).min().getAsLong())
              / 1e6;
      LOG.info(
          "bmc-pass: {} replica(s): {} reads in a window of {} ms; bench JVM CPU {} ms ({} ms a"
              + " read, {} % of the cores); machine busy {} %; load {} -> {}",
          count,
          reads,
          Math.round(windowMillis),
          Math.round(cpu[1].processCpuMillisSince(cpu[0])),
          String.format(Locale.ROOT, "%.2f", cpu[1].processCpuMillisSince(cpu[0]) / reads),
          Math.round(100 * cpu[1].processShareSince(cpu[0])),
          Math.round(100 * cpu[1].machineBusySince(cpu[0])),
          cpu[0].loadAverage(),
          cpu[1].loadAverage());
      for (PassReplica r : replicas) {
        r.recorder.tally().requireRealStates(name());
      }
      int misread = 0;
      for (String id : ids) {
        String at = address.get(id);
        for (PassReplica r : replicas) {
          int expected = ring.owns(r.name, id) ? 1 : 0;
          if (r.recorder.reads(at) != expected || r.recorder.draws(at) != 0) {
            misread++;
            break;
          }
        }
      }
      PassReplica slowest =
          replicas.stream()
              .max((a, b) -> Double.compare(passMillis.get(a), passMillis.get(b)))
              .get();
      for (PassReplica r : replicas) {
        // the mean of the reads under way: at the BMC concurrency the pass waited for the BMCs;
        // power draws read in the timed pass are reads its ideal does not count
        LOG.info(
            "bmc-pass: {} replica(s): {} read {} nodes in {} ms (peak {} calls at once, {} on"
                + " average); {} power draws read in the pass; {} etcd revisions written during"
                + " the pass",
            count,
            r.name,
            owned.get(r).size(),
            Math.round(passMillis.get(r)),
            r.recorder.peakInFlight(),
            String.format(Locale.ROOT, "%.1f", r.recorder.readNanos() / (passMillis.get(r) * 1e6)),
            r.recorder.drawReads(),
            written);
      }
      double ringMillis = 0;
      double takeoverMillis = 0;
      int cutShare = 0;
      boolean takenOver = true;
      if (cut) {
        PassReplica gone = replicas.get(replicas.size() - 1);
        List<PassReplica> survivors = replicas.subList(0, replicas.size() - 1);
        Set<String> left = survivors.stream().map(r -> r.name).collect(Collectors.toSet());
        List<String> theirs = owned.get(gone);
        cutShare = theirs.size();
        long cutAt = System.nanoTime();
        gone.cutOff();
        await(
            () -> survivors.stream().allMatch(r -> r.registry.ring().members().equals(left)),
            TTL.multipliedBy(4),
            "the ring without " + gone.name);
        ringMillis = (System.nanoTime() - cutAt) / 1e6;
        await(
            () ->
                theirs.stream()
                    .allMatch(
                        id ->
                            survivors.stream()
                                .anyMatch(r -> r.recorder.reads(address.get(id)) >= 1)),
            // the survivors read them in their next pass, which begins within a sync interval and
            // at 100,000 nodes takes longer than the lease's multiples (78 s ideal at 100 ms)
            TTL.multipliedBy(4)
                .plus(sync)
                .plus(
                    Duration.ofMillis(
                        (long)
                            (2
                                * idealMillis(
                                    ids.size(), 1, survivors.size(), CONCURRENCY, latency)))),
            "the cut replica's nodes read by the survivors");
        takeoverMillis = (System.nanoTime() - cutAt) / 1e6;
        for (String id : theirs) {
          long owners = survivors.stream().filter(r -> r.registry.owns(id)).count();
          takenOver &= owners == 1;
        }
        LOG.info(
            "bmc-pass: {} cut off: ring without it after {} ms, its {} nodes read by the survivors"
                + " after {} ms",
            gone.name,
            Math.round(ringMillis),
            cutShare,
            Math.round(takeoverMillis));
      }
      return new Pass(
          written,
          passMillis.get(slowest),
          owned.get(slowest).size(),
          misread,
          ringMillis,
          takeoverMillis,
          cutShare,
          takenOver,
          reads,
          windowMillis,
          cpu[0],
          cpu[1]);
    } finally {
      for (PassReplica r : replicas.reversed()) {
        r.close();
      }
    }
  }

  static long revision(Client client) throws Exception {
    return client
        .getKVClient()
        .get(
            ByteSequence.from(Keys.ROOT, StandardCharsets.UTF_8),
            GetOption.builder().withCountOnly(true).build())
        .get(30, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  private static int draws(List<PassReplica> replicas, String address) {
    int n = 0;
    for (PassReplica r : replicas) {
      n += r.recorder.draws(address);
    }
    return n;
  }

  /** Waits until no BMC call is under way and none began for a second. */
  static void awaitQuiet(List<PassReplica> replicas) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    long last = -1;
    long quietSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      long total = replicas.stream().mapToLong(r -> r.recorder.total()).sum();
      int inFlight = replicas.stream().mapToInt(r -> r.recorder.inFlight()).sum();
      if (total != last || inFlight > 0) {
        last = total;
        quietSince = System.nanoTime();
      } else if (System.nanoTime() - quietSince > 1_000_000_000L) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("the BMC calls did not stop within 2 minutes");
  }

  private static void await(BooleanSupplier done, Duration timeout, String what)
      throws InterruptedException {
    await(done, timeout, what, () -> "");
  }

  /** Waits for {@code done}, logging {@code progress} every 15 s. */
  static void await(BooleanSupplier done, Duration timeout, String what, Supplier<String> progress)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    long nextLog = start + 15_000_000_000L;
    while (!done.getAsBoolean()) {
      long now = System.nanoTime();
      if (now > deadline) {
        throw new IllegalStateException("no " + what + " within " + timeout);
      }
      if (now > nextLog) {
        LOG.info("bmc-pass: waiting for {}: {}", what, progress.get());
        nextLog = now + 15_000_000_000L;
      }
      Thread.sleep(20);
    }
  }
}
