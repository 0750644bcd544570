package io.bamel.bench.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.Timer;
import io.bamel.dcim.netbox.FakeNetBox;
import io.bamel.dcim.netbox.NetBoxClient;
import io.bamel.dcim.netbox.NetBoxFilters;
import io.bamel.dcim.netbox.NetBoxPull;
import io.bamel.dcim.netbox.NetBoxSettings;
import io.bamel.dcim.netbox.NetBoxToken;
import io.bamel.dcim.netbox.PullReport;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The NetBox pull of N devices (default 10,000) from WireMock answering as NetBox 4.2 in pages of
 * 1,000 (device pages, the interfaces a hundred devices per request, each with only the fields
 * bamel asks for as NetBox 4 renders them, the boot MAC, planning against the cache, fenced batched
 * writes) against the DCIM sync of the same devices posted in one body ({@code POST
 * /api/v1/sync?format=netbox}, the MAC on each record, so the same specs): target at most 1.5, the
 * medians of 5 runs of each, alternating. Then the pull again, NetBox unchanged: it must write
 * nothing (target: the etcd revision does not move); its time is reported beside the sync's.
 */
public final class NetBoxPullBenchmark implements Benchmark {

  @Override
  public String name() {
    return "netbox-pull";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int n = context.size("netboxDevices", 10_000);
    int runs = context.quick() ? 1 : 5;
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client();
        FakeNetBox netbox = new FakeNetBox(FakeNetBox.Version.V4_2);
        ApiBench api = new ApiBench(client)) {
      List<ObjectNode> devices = netbox.devices(n);
      netbox.serve(devices, 1000);
      ObjectNode export = Codec.mapper().createObjectNode();
      export.put("count", n).putNull("next").putNull("previous");
      ArrayNode results = export.putArray("results");
      for (ObjectNode d : devices) {
        ObjectNode copy = d.deepCopy();
        long id = d.get("id").asLong();
        copy.putObject("primary_mac_address").put("mac_address", FakeNetBox.mac(id, 1));
        results.add(copy);
      }
      byte[] body = Codec.encode(export);

      NetBoxSettings settings =
          new NetBoxSettings(
              netbox.url(),
              NetBoxToken.parse(FakeNetBox.TOKEN, "bench"),
              null,
              NetBoxFilters.NONE,
              Duration.ofHours(1),
              null,
              1000,
              NetBoxSettings.Scope.BMC,
              true,
              Duration.ofSeconds(60),
              NetBoxClient.Retry.DEFAULTS,
              NetBoxSettings.ReportBack.OFF,
              null,
              1000,
              Set.of());
      NetBoxPull pull =
          new NetBoxPull(
              settings,
              new NetBoxClient(
                  settings.url(),
                  settings.token(),
                  null,
                  settings.timeout(),
                  settings.retry(),
                  Clock.systemUTC()),
              new EtcdInventory(client),
              api.cache,
              Clock.systemUTC());
      WriteFence[] fence = new WriteFence[1];

      // Sync and pull alternate, run by run: both write 10,000 nodes into an emptied etcd, and
      // etcd's write time drifts as its backend grows and is compacted, so timing all the syncs
      // first and all the pulls after them charged the drift to the pull alone.
      double[] medians =
          Timer.interleavedMedians(
              runs,
              Timer.Trial.of(
                  () -> {
                    api.clear(etcd);
                    fence[0] = lead(client);
                  },
                  () -> {
                    PullReport r = pull.run(false, fence[0]);
                    if (!r.complete() || r.sync() == null || r.sync().created().size() != n) {
                      throw new IllegalStateException(
                          "the pull did not create every node: " + r.errors());
                    }
                    printPhases("created", r);
                  }),
              api.syncIntoEmpty(etcd, "/api/v1/sync?format=netbox", body, n));
      double pullMillis = medians[0];
      double syncMillis = medians[1];
      long before = etcd.revision();
      double repullMillis =
          Timer.medianMillis(
              runs,
              () -> {
                PullReport r = pull.run(false, fence[0]);
                if (r.sync() == null || r.sync().unchanged().size() != n) {
                  throw new IllegalStateException("the unchanged re-pull found changes");
                }
                printPhases("unchanged", r);
              });
      long written = etcd.revision() - before;
      return List.of(
          BenchResult.ratioAtMost(
              name(),
              String.format("pull %,d devices (pages of 1,000) vs sync of one body", n),
              pullMillis,
              syncMillis,
              "ms",
              1.5),
          // The unchanged re-pull reads NetBox again (which the one-body sync does not), so its
          // time is shown against the sync, and its target is on what it writes: nothing.
          new BenchResult(
              name(),
              String.format(
                  "re-pull %,d unchanged (%,.0f ms; sync %,.0f ms): etcd revisions written",
                  n, repullMillis, syncMillis),
              written,
              0,
              "revisions",
              written,
              "= 0",
              written == 0));
    }
  }

  /** One pull's read, plan and write times on standard error, named by what it did. */
  private static void printPhases(String outcome, PullReport r) {
    System.err.printf(
        "netbox-pull (%s): read %d ms, plan %d ms, write %d ms%n",
        outcome, r.readMillis(), r.planMillis(), r.writeMillis());
  }

  /**
   * The leadership key of {@code netbox-sync}, as a leader holds it (the benchmark clears etcd
   * between runs, so it takes the key itself rather than running an election): the pull's writes
   * are fenced by it as the server's are.
   */
  private static WriteFence lead(Client client) throws Exception {
    String key = Keys.leader("netbox-sync");
    ByteSequence k = ByteSequence.from(key, StandardCharsets.UTF_8);
    client.getKVClient().put(k, ByteSequence.from("bench", StandardCharsets.UTF_8)).get();
    long created = client.getKVClient().get(k).get().getKvs().get(0).getCreateRevision();
    return new WriteFence(key, created);
  }
}
