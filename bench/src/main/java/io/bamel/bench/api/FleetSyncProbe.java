package io.bamel.bench.api;

import io.bamel.bench.Timer;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;

/**
 * Not a benchmark: a probe that attributes the {@code fleet-100k} sync row's work in figures that
 * depend little on the machine's load (allocation not at all). It loads a fleet ({@code
 * -Dprobe.fleet}, default 20,000 nodes) into one etcd and runs, in turn, {@link FleetSync}'s raw
 * transactions, its sync, and the same raw keys in transactions shaped as the sync's (21 nodes: 126
 * puts and 105 guards each; what etcd's evaluation of the guards costs without bamel): {@code
 * -Dprobe.runs} rounds after {@code -Dprobe.warmUp} untimed syncs. For each run it prints the wall
 * time, the CPU time and allocation of every JVM thread (summed by name, digits dropped), the JVM's
 * total allocation and collections, the etcd process's CPU time and the deltas of etcd's own
 * counters (transactions, range evaluations, puts). With {@code -Dprobe.jfr=FILE} the measured
 * syncs (not the raw runs) are recorded with JFR's profile settings.
 *
 * <p>Run it as the benchmarks are run ({@code java -cp ... io.bamel.bench.api.FleetSyncProbe}).
 */
public final class FleetSyncProbe {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private FleetSyncProbe() {}

  /** Runs the probe; see the class comment for its properties. */
  public static void main(String[] args) throws Exception {
    int fleet = Integer.getInteger("probe.fleet", 20_000);
    int count = Integer.getInteger("probe.count", 10_000);
    int warmUp = Integer.getInteger("probe.warmUp", 4);
    int runs = Integer.getInteger("probe.runs", 4);
    String jfr = System.getProperty("probe.jfr");
    THREADS.setThreadAllocatedMemoryEnabled(true);
    THREADS.setThreadCpuTimeEnabled(true);
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      System.out.printf("probe: loading %,d nodes%n", fleet);
      FleetKeys.load(client, 0, fleet, 4);
      try (ApiBench api = new ApiBench(client)) {
        FleetSync sync = new FleetSync(etcd, client, api, fleet, count, 4);
        for (int i = 0; i < warmUp; i++) {
          System.out.printf("probe: warm-up sync %.0f ms%n", Timer.once(sync.sync()));
        }
        Timer.once(sync.raw());
        Recording recording = null;
        for (int i = 0; i < runs; i++) {
          measure("raw", sync.raw(), etcd, count);
          if (jfr != null && recording == null) {
            recording = new Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            recording.start();
          }
          if (recording != null) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(5));
          }
          measure("sync", sync.sync(), etcd, count);
          measure("guarded", guarded(sync, client), etcd, count);
          if (recording != null) {
            recording.disable("jdk.ExecutionSample");
          }
        }
        if (recording != null) {
          recording.stop();
          recording.dump(Path.of(jfr));
          recording.close();
          System.out.println("probe: JFR recording in " + jfr);
        }
        sync.removeNew();
      }
    }
  }

  /**
   * The raw keys in transactions shaped as the sync's: 21 nodes each (126 puts), each node's spec
   * and index keys and first event guarded absent (105 compares), no bamel code: what etcd's
   * evaluation of the guards costs on its own.
   */
  private static Timer.Trial guarded(FleetSync sync, Client client) {
    return new Timer.Trial() {
      @Override
      public void prepare() throws Exception {
        sync.removeNew();
      }

      @Override
      public void run() throws Exception {
        List<java.util.Map.Entry<String, byte[]>> kvs = sync.rawKeys();
        int perTxn = 126;
        for (int start = 0; start < kvs.size(); start += perTxn) {
          List<io.etcd.jetcd.op.Op> ops = new ArrayList<>();
          List<io.etcd.jetcd.op.Cmp> cmps = new ArrayList<>();
          for (java.util.Map.Entry<String, byte[]> kv :
              kvs.subList(start, Math.min(kvs.size(), start + perTxn))) {
            io.etcd.jetcd.ByteSequence key =
                io.etcd.jetcd.ByteSequence.from(
                    kv.getKey(), java.nio.charset.StandardCharsets.UTF_8);
            ops.add(
                io.etcd.jetcd.op.Op.put(
                    key,
                    io.etcd.jetcd.ByteSequence.from(kv.getValue()),
                    io.etcd.jetcd.options.PutOption.DEFAULT));
            if (!kv.getKey().contains("/members/")) {
              cmps.add(
                  new io.etcd.jetcd.op.Cmp(
                      key,
                      io.etcd.jetcd.op.Cmp.Op.EQUAL,
                      io.etcd.jetcd.op.CmpTarget.createRevision(0)));
            }
          }
          var response =
              client
                  .getKVClient()
                  .txn()
                  .If(cmps.toArray(io.etcd.jetcd.op.Cmp[]::new))
                  .Then(ops.toArray(io.etcd.jetcd.op.Op[]::new))
                  .commit()
                  .get(30, java.util.concurrent.TimeUnit.SECONDS);
          if (!response.isSucceeded()) {
            throw new IllegalStateException("a guard failed");
          }
        }
      }
    };
  }

  private static void measure(String what, Timer.Trial trial, EtcdCluster etcd, int count)
      throws Exception {
    trial.prepare();
    System.gc();
    Map<Long, String> names = new HashMap<>();
    Map<Long, long[]> before = threads(names);
    long alloc0 = THREADS.getTotalThreadAllocatedBytes();
    long[] gc0 = gc();
    long etcd0 = etcdCpu(etcd);
    Map<String, Double> metrics0 = metrics(etcd);
    long t0 = System.nanoTime();
    trial.run();
    long wall = System.nanoTime() - t0;
    Map<Long, long[]> after = threads(names);
    long alloc = THREADS.getTotalThreadAllocatedBytes() - alloc0;
    long[] gc = gc();
    long etcdCpu = etcdCpu(etcd) - etcd0;
    Map<String, Double> metrics1 = metrics(etcd);
    Map<String, long[]> byName = new TreeMap<>();
    for (Map.Entry<Long, long[]> e : after.entrySet()) {
      long[] b = before.getOrDefault(e.getKey(), new long[2]);
      long cpu = e.getValue()[0] - b[0];
      long bytes = e.getValue()[1] - b[1];
      String name = names.get(e.getKey()).replaceAll("[0-9]+", "#");
      long[] sum = byName.computeIfAbsent(name, k -> new long[2]);
      sum[0] += cpu;
      sum[1] += bytes;
    }
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            "probe: %s %.0f ms wall; JVM allocated %.1f MB (%.1f KB/node); %d GCs %d ms;"
                + " etcd CPU %d ms (%.1f us/node)%n",
            what,
            wall / 1e6,
            alloc / 1e6,
            alloc / 1e3 / count,
            gc[0] - gc0[0],
            gc[1] - gc0[1],
            etcdCpu / 1_000_000,
            etcdCpu / 1e3 / count));
    for (Map.Entry<String, long[]> e : byName.entrySet()) {
      if (e.getValue()[0] >= 5_000_000 || e.getValue()[1] >= 5_000_000) {
        b.append(
            String.format(
                "probe:   %-40s CPU %6d ms (%5.1f us/node), alloc %7.1f MB (%5.1f KB/node)%n",
                e.getKey(),
                e.getValue()[0] / 1_000_000,
                e.getValue()[0] / 1e3 / count,
                e.getValue()[1] / 1e6,
                e.getValue()[1] / 1e3 / count));
      }
    }
    for (Map.Entry<String, Double> e : metrics1.entrySet()) {
      double d = e.getValue() - metrics0.getOrDefault(e.getKey(), 0.0);
      if (d != 0) {
        b.append(String.format("probe:   etcd %s +%.0f%n", e.getKey(), d));
      }
    }
    System.out.print(b);
  }

  private static Map<Long, long[]> threads(Map<Long, String> names) {
    Map<Long, long[]> m = new HashMap<>();
    long[] ids = THREADS.getAllThreadIds();
    long[] bytes = THREADS.getThreadAllocatedBytes(ids);
    long[] cpu = THREADS.getThreadCpuTime(ids);
    for (int i = 0; i < ids.length; i++) {
      var info = THREADS.getThreadInfo(ids[i]);
      if (info == null || cpu[i] < 0) {
        continue;
      }
      names.put(ids[i], info.getThreadName());
      m.put(ids[i], new long[] {cpu[i], bytes[i]});
    }
    return m;
  }

  private static long[] gc() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, bean.getCollectionCount());
      millis += Math.max(0, bean.getCollectionTime());
    }
    return new long[] {count, millis};
  }

  private static long etcdCpu(EtcdCluster etcd) {
    return ProcessHandle.of(etcd.member(0).pid())
        .flatMap(p -> p.info().totalCpuDuration())
        .map(Duration::toNanos)
        .orElse(-1L);
  }

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** etcd's counters the probe reports, summed over their labels but the gRPC method. */
  private static Map<String, Double> metrics(EtcdCluster etcd) throws Exception {
    String text =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(etcd.member(0).clientUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    Map<String, Double> m = new TreeMap<>();
    List<String> wanted =
        new ArrayList<>(
            List.of(
                "etcd_mvcc_range_total",
                "etcd_mvcc_put_total",
                "etcd_mvcc_delete_total",
                "etcd_mvcc_txn_total",
                "etcd_disk_backend_commit_duration_seconds_count"));
    for (String line : text.split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      String key = line.substring(0, space);
      double value;
      try {
        value = Double.parseDouble(line.substring(space + 1));
      } catch (NumberFormatException e) {
        continue;
      }
      if (key.startsWith("grpc_server_handled_total")) {
        int at = key.indexOf("grpc_method=\"");
        if (at >= 0) {
          String method = key.substring(at + 13, key.indexOf('"', at + 13));
          m.merge("grpc " + method, value, Double::sum);
        }
        continue;
      }
      for (String w : wanted) {
        if (key.equals(w) || key.startsWith(w + "{")) {
          m.merge(w, value, Double::sum);
        }
      }
    }
    return m;
  }
}
