package io.bamel.bench.node;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.node.NodeControllerConfig;
import io.bamel.power.Sleeper;
import io.bamel.power.credentials.AllowedHosts;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.ipmi.IpmiConfig;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.process.SystemProcessRunner;
import io.bamel.power.sim.ipmi.SimIpmiBmc;
import io.bamel.power.sim.ipmi.SimIpmiFleet;
import io.etcd.jetcd.Client;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The IPMI variant of {@code bmc-pass}: one node-controller replica's periodic pass over a
 * powered-on fleet of simulated IPMI v2.0 BMCs ({@link SimIpmiFleet}: in this JVM, each on its own
 * UDP port of 127.0.0.1, answering every RMCP+ message after 100 ms), read with bamel's native
 * RMCP+ client (cipher suite 3, the shipped default), against the same ideal as the Redfish row:
 * {@code nodes x 1 read x latency / 64} BMC calls at once. Target: at most 1.3 (issue 33).
 *
 * <p>As in {@code bmc-pass}, the controller's first pass runs without latency (it opens a session
 * with every BMC and reads every node's state and power draw); the second pass is timed, every
 * message then answered after the latency. A read in it is one Get Chassis Status in the session
 * kept since the first pass, so the sync interval (twice the ideal pass, at least 20 s) must stay
 * below the client's session idle time, here 50 s, itself below the simulated BMCs' 60 s session
 * timeout. Reported too: the sessions the BMCs activated during the timed pass (0: every read
 * reused its session), and every read's answer ({@code PowerReadTally}: a run with an {@code
 * unknown} fails). 10,000 nodes by default ({@code -Dbench.bmcPassIpmiNodes}); above about 16,000
 * the interval outgrows the session idle time and each read logs in again (five more round trips),
 * which the session row shows.
 */
public final class IpmiBmcPassBenchmark implements Benchmark {

  private static final Logger LOG = LoggerFactory.getLogger(IpmiBmcPassBenchmark.class);
  private static final int CONCURRENCY = NodeControllerConfig.DEFAULTS.bmcConcurrency();
  private static final Duration SESSION_IDLE = Duration.ofSeconds(50);

  @Override
  public String name() {
    return "bmc-pass-ipmi";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int nodes = context.size("bmcPassIpmiNodes", 10_000);
    Duration latency = Duration.ofMillis(Integer.getInteger("bench.bmcPassIpmiLatencyMs", 100));
    double ideal = BmcPassBenchmark.idealMillis(nodes, 1, 1, CONCURRENCY, latency);
    Integer syncSeconds = Integer.getInteger("bench.bmcPassIpmiSyncSeconds");
    Duration sync =
        syncSeconds != null
            ? Duration.ofSeconds(syncSeconds)
            : BmcPassBenchmark.syncInterval(ideal, 20);
    LOG.info(
        "bmc-pass-ipmi: {} simulated IPMI BMCs answering after {} ms, sync interval {} s, sessions"
            + " kept {} s",
        nodes,
        latency.toMillis(),
        sync.toSeconds(),
        SESSION_IDLE.toSeconds());
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client();
        SimIpmiFleet fleet = SimIpmiFleet.start()) {
      List<String> ids = new ArrayList<>(nodes);
      List<String> addresses = new ArrayList<>(nodes);
      List<BatchItem> items = new ArrayList<>(nodes);
      for (int i = 0; i < nodes; i++) {
        SimIpmiBmc bmc = fleet.add("node-" + i, true);
        ids.add(bmc.id());
        addresses.add(bmc.address());
        items.add(BatchItem.upsert(bmc.id(), spec(bmc), null));
      }
      new EtcdInventory(client).upsertAll(items);
      // As a controller that has been running leaves them, inspection included: the IPMI
      // driver inspects through ipmitool's FRU reader, a process per node, which is not what a
      // periodic pass measures.
      BmcPassBenchmark.settle(client, ids, BmcPassBenchmark.inspected(Instant.now()));
      return timedPass(etcd, fleet, addresses, sync, latency, ideal);
    }
  }

  private List<BenchResult> timedPass(
      EtcdCluster etcd,
      SimIpmiFleet fleet,
      List<String> addresses,
      Duration sync,
      Duration latency,
      double ideal)
      throws Exception {
    int nodes = addresses.size();
    try (PassReplica replica = new PassReplica(etcd, "bench-a", ipmi())) {
      BmcPassBenchmark.await(
          () -> replica.registry.ring().members().equals(Set.of(replica.name)),
          Duration.ofMinutes(1),
          "the replica on the ring",
          () -> "");
      replica.cache.awaitSynced(Duration.ofMinutes(2));
      long started = System.nanoTime();
      replica.startController(sync);
      BmcPassBenchmark.await(
          () -> addresses.stream().allMatch(a -> replica.recorder.draws(a) >= 1),
          sync.multipliedBy(4).plus(Duration.ofMinutes(10)),
          "the first pass (sessions opened, power draws read)",
          () -> addresses.stream().filter(a -> replica.recorder.draws(a) >= 1).count() + " done");
      BmcPassBenchmark.awaitQuiet(List.of(replica));
      long sessionsBefore = sessions(fleet);
      LOG.info(
          "bmc-pass-ipmi: start-up and first pass done {} ms after start; {} sessions activated",
          (System.nanoTime() - started) / 1_000_000,
          sessionsBefore);

      fleet.latency(latency);
      replica.recorder.reset();
      long revisionBefore = BmcPassBenchmark.revision(replica.client);
      CpuSample[] cpu = new CpuSample[2];
      BmcPassBenchmark.await(
          () -> {
            if (cpu[0] == null && replica.recorder.firstStart() != Long.MAX_VALUE) {
              cpu[0] = CpuSample.now();
            }
            if (replica.recorder.nodesRead() >= nodes
                && addresses.stream().allMatch(a -> replica.recorder.reads(a) >= 1)) {
              cpu[1] = CpuSample.now();
              return true;
            }
            return false;
          },
          sync.multipliedBy(3).plus(Duration.ofMillis((long) (10 * ideal))),
          "the timed pass",
          () -> replica.recorder.nodesRead() + " nodes read");
      double millis = (replica.recorder.lastEnd() - replica.recorder.firstStart()) / 1e6;
      long written = BmcPassBenchmark.revision(replica.client) - revisionBefore;
      long logins = sessions(fleet) - sessionsBefore;
      long reads = addresses.stream().mapToLong(a -> replica.recorder.reads(a)).sum();
      int misread = 0;
      for (String a : addresses) {
        if (replica.recorder.reads(a) != 1 || replica.recorder.draws(a) != 0) {
          misread++;
        }
      }
      long tallied = replica.recorder.tally().reads();
      long unknown = replica.recorder.tally().unknown();
      replica.recorder.tally().requireRealStates(name());
      LOG.info(
          "bmc-pass-ipmi: {} nodes read in {} ms (peak {} calls at once), {} sessions opened, {}"
              + " etcd revisions written; bench JVM CPU {} ms ({} % of the cores); machine busy {}"
              + " %; load {} -> {}",
          nodes,
          Math.round(millis),
          replica.recorder.peakInFlight(),
          logins,
          written,
          Math.round(cpu[1].processCpuMillisSince(cpu[0])),
          Math.round(100 * cpu[1].processShareSince(cpu[0])),
          Math.round(100 * cpu[1].machineBusySince(cpu[0])),
          cpu[0].loadAverage(),
          cpu[1].loadAverage());
      return List.of(
          PassRows.onePass(
              name(),
              "IPMI BMCs",
              " (RMCP+ suite 3, simulated in process)",
              nodes,
              latency,
              CONCURRENCY,
              millis,
              ideal),
          new BenchResult(
              name(),
              String.format(
                  Locale.ROOT,
                  "timed pass: sessions the BMCs activated (of %,d reads; 0: each read reused the"
                      + " session kept since the first pass)",
                  reads),
              logins,
              0,
              "sessions",
              logins,
              "info",
              true),
          BenchResult.none(
              name(),
              String.format(Locale.ROOT, "timed pass: nodes not read exactly once (of %,d)", nodes),
              misread,
              "nodes"),
          BenchResult.none(
              name(), "etcd revisions written during the timed pass", written, "revisions"),
          PassRows.cpu(name(), "", reads, 1, latency, CONCURRENCY, cpu[0], cpu[1]),
          BenchResult.none(
              name(),
              String.format(
                  Locale.ROOT,
                  "power reads answered unknown, every read since the controller started (of %,d; PowerReadTally)",
                  tallied),
              unknown,
              "reads"));
    }
  }

  private static long sessions(SimIpmiFleet fleet) {
    return fleet.bmcs().stream().mapToLong(SimIpmiBmc::sessionsActivated).sum();
  }

  private static NodeSpec spec(SimIpmiBmc bmc) {
    return NodeSpec.builder()
        .name(bmc.id())
        .pool("bench")
        .mgmtAddress(bmc.address())
        .powerInterface(PowerInterface.of("ipmi"))
        .bmcCredentials("bmc")
        .desiredPower(DesiredPower.ON)
        .build();
  }

  /**
   * bamel's IPMI driver as shipped (native client, suite 3, administrator) but sessions kept 50 s
   * (see the class comment) and the simulator's account, allowed to 127.0.0.1.
   */
  private static IpmiDriver ipmi() {
    CredentialSource credentials =
        new CredentialSource() {
          @Override
          public Credentials credentials(String name) {
            return Credentials.of(SimIpmiFleet.ADMIN.name(), SimIpmiFleet.ADMIN.password());
          }

          @Override
          public AllowedHosts allowedHosts(String name) {
            return AllowedHosts.parse("127.0.0.1\n");
          }
        };
    IpmiConfig d = IpmiConfig.defaults();
    IpmiConfig config =
        new IpmiConfig(
            d.ipmitool(),
            d.cipherSuite(),
            d.privilege(),
            d.retransmitTimeout(),
            d.retries(),
            d.commandTimeout(),
            d.minInterval(),
            d.gracefulTimeout(),
            d.pollInterval(),
            d.implementation(),
            SESSION_IDLE);
    return new IpmiDriver(
        credentials, config, new SystemProcessRunner(), Clock.systemUTC(), Sleeper.SYSTEM);
  }
}
