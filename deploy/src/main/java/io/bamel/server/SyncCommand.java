package io.bamel.server;

import io.bamel.dcim.netbox.NetBoxPull;
import io.bamel.dcim.netbox.NetBoxSettings;
import io.bamel.dcim.netbox.NetBoxSource;
import io.bamel.dcim.netbox.PullReport;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.sync.SyncReport;
import io.bamel.power.wol.PowerOffCommands;
import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bamel sync}: a DCIM sync from the command line. {@code bamel sync netbox --once} pulls
 * NetBox once with the server's configuration ({@code --config}, {@code BAMEL_*}): {@code
 * --dry-run} prints the plan (what would be created, updated, deleted, rejected and why) and writes
 * nothing; without it, the command first takes the leadership of {@code netbox-sync} (so it never
 * runs beside a server's pull) and writes fenced by it. Exit code 0 when the pull read NetBox
 * completely and wrote (or would write) without error, 1 otherwise, 2 for a configuration or usage
 * error.
 */
@Command(
    name = "sync",
    mixinStandardHelpOptions = true,
    description = "Runs a DCIM sync once.",
    subcommands = {SyncCommand.NetBox.class})
public final class SyncCommand implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** {@code bamel sync netbox}. */
  @Command(
      name = "netbox",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description =
          "Pulls NetBox once (netbox.* settings); --dry-run prints the plan and writes nothing.")
  public static final class NetBox implements Callable<Integer> {

    @Option(names = "--config", description = "YAML configuration file (the server's)")
    Path config;

    @Option(
        names = "--once",
        required = true,
        description = "pull once and exit (the server pulls on its own schedule)")
    boolean once;

    @Option(names = "--dry-run", description = "print the plan, write nothing")
    boolean dryRun;

    @Option(names = "--output", description = "text (default) or json")
    String output = "text";

    @Option(
        names = "--leader-wait",
        description = "how long to wait for the netbox-sync leadership (default 20s)")
    String leaderWait = "20s";

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    /** A command on standard output and error and the process environment. */
    public NetBox() {
      this(System.out, System.err, System.getenv());
    }

    NetBox(PrintStream out, PrintStream err, Map<String, String> env) {
      this.out = out;
      this.err = err;
      this.env = env;
    }

    @Override
    public Integer call() throws Exception {
      if (!output.equals("text") && !output.equals("json")) {
        err.println("bamel sync netbox: --output must be text or json");
        return 2;
      }
      Duration wait;
      try {
        wait = io.bamel.inventory.model.Durations.parse(leaderWait);
      } catch (RuntimeException e) {
        err.println("bamel sync netbox: --leader-wait must be a duration such as 20s");
        return 2;
      }
      ServerConfig cfg;
      NetBoxSettings settings;
      try {
        cfg = ConfigLoader.load(config, env, Map.of());
        if (!cfg.netbox().enabled()) {
          err.println(
              "bamel sync netbox: netbox.url is not set (in --config, or BAMEL_NETBOX_URL); see"
                  + " docs/dcim.md");
          return 2;
        }
        settings = NetBoxConfig.settings(cfg.netbox(), commandNames(cfg));
      } catch (ConfigException e) {
        err.println("bamel sync netbox: " + e.getMessage());
        return 2;
      }
      ServerConfig.Etcd etcd =
          cfg.embeddedEtcd()
              ? EmbeddedEtcd.prepare(Path.of(cfg.etcd().dataDir())).clientSettings(cfg.etcd())
              : cfg.etcd();
      Clock clock = Clock.systemUTC();
      io.bamel.inventory.model.PlaceholderSerials.configure(cfg.sync().placeholderSerials());
      try (Client client = EtcdConnection.connect(etcd, etcd.endpoints());
          InventoryCache cache = new InventoryCache(client)) {
        cache.start();
        if (!cache.awaitSynced(etcd.timeout().multipliedBy(3))) {
          err.println(
              "bamel sync netbox: cannot read the inventory from etcd at "
                  + String.join(",", etcd.endpoints())
                  + " (is bamel server running, is etcd reachable?)");
          return 1;
        }
        EtcdInventory store = new EtcdInventory(client);
        NetBoxPull pull =
            new NetBoxPull(settings, NetBoxConfig.client(settings, clock), store, cache, clock);
        if (dryRun) {
          return print(pull.run(true, null));
        }
        try (LeaderElection election =
            new LeaderElection(
                    client,
                    NetBoxSource.COMPONENT,
                    "bamel-sync-" + Instances.defaultName(),
                    LeaderElection.Options.DEFAULTS)
                .start()) {
          WriteFence fence = awaitFence(election, wait);
          if (fence == null) {
            err.println(
                "bamel sync netbox: another process leads "
                    + NetBoxSource.COMPONENT
                    + " (a bamel server pulls NetBox already, every "
                    + settings.interval().toSeconds()
                    + " s); use --dry-run to see the plan");
            return 1;
          }
          return print(pull.run(false, fence));
        } catch (FencedException e) {
          err.println("bamel sync netbox: lost the leadership while writing: " + e.getMessage());
          return 1;
        }
      }
    }

    private static WriteFence awaitFence(LeaderElection election, Duration wait)
        throws InterruptedException {
      long until = System.nanoTime() + wait.toNanos();
      while (System.nanoTime() < until) {
        var fence = election.fence();
        if (fence.isPresent()) {
          return fence.get();
        }
        Thread.sleep(100);
      }
      return null;
    }

    private static java.util.Set<String> commandNames(ServerConfig cfg) {
      String file = cfg.wakeOnLan().powerOffCommandsFile();
      if (file.isEmpty()) {
        return java.util.Set.of();
      }
      try {
        return PowerOffCommands.load(Path.of(file)).names();
      } catch (IOException | IllegalArgumentException e) {
        throw new ConfigException("wakeOnLan.powerOffCommandsFile: " + e.getMessage());
      }
    }

    private int print(PullReport r) {
      if (output.equals("json")) {
        out.println(new String(Codec.encode(r), java.nio.charset.StandardCharsets.UTF_8));
      } else {
        PlanText.print(r, out);
      }
      out.flush();
      return r.ok() ? 0 : 1;
    }
  }

  /** The plain-text plan of a pull. */
  static final class PlanText {

    private PlanText() {}

    static void print(PullReport r, PrintStream out) {
      out.println(
          "NetBox "
              + (r.netboxVersion() == null ? "" : r.netboxVersion() + " ")
              + "("
              + r.paging()
              + " paging): "
              + r.devices()
              + " devices, "
              + (r.complete() ? "every page read" : "NOT every page read: nothing is pruned"));
      out.println(r.dryRun() ? "dry run: nothing was written" : "written");
      SyncReport s = r.sync();
      if (s != null) {
        list(out, "create", s.created());
        list(out, "update", s.updated());
        list(out, "delete", s.deleted());
        for (SyncReport.Entry e : s.rejected()) {
          out.println(
              "reject  "
                  + (e.id() == null ? "(item " + e.item() + ")" : e.id())
                  + ": "
                  + e.reason()
                  + (e.errors().isEmpty()
                      ? ""
                      : " "
                          + String.join(
                              "; ",
                              e.errors().stream()
                                  .map(f -> f.field() + ": " + f.message())
                                  .toList())));
        }
        out.println(
            "summary: "
                + s.created().size()
                + " to create, "
                + s.updated().size()
                + " to update, "
                + s.unchanged().size()
                + " unchanged, "
                + s.deleted().size()
                + " to delete, "
                + s.rejected().size()
                + " rejected");
      }
      for (String e : r.errors()) {
        out.println("error: " + e);
      }
    }

    private static void list(PrintStream out, String verb, List<SyncReport.Entry> entries) {
      for (SyncReport.Entry e : entries) {
        out.println(String.format("%-7s %s", verb, e.id()));
      }
    }
  }
}
