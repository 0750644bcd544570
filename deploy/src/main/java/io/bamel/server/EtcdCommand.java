package io.bamel.server;

import io.bamel.server.config.ConfigException;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.ServerConfig;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Maintenance;
import io.etcd.jetcd.maintenance.AlarmMember;
import io.etcd.jetcd.maintenance.AlarmType;
import io.etcd.jetcd.maintenance.StatusResponse;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bamel etcd status|defrag|disarm}: looks after the etcd bamel uses, with bamel's own
 * connection settings (the same {@code --config}, {@code BAMEL_*} variables; for the embedded etcd,
 * its certificates in the data directory, while {@code bamel server} runs). {@code status} prints
 * each member's database size, the bytes in use and etcd's alarms; {@code defrag} returns the pages
 * compaction freed to the file system, one member after the other (a member does not answer while
 * it defragments); {@code disarm} clears a NOSPACE alarm once space is free again, so etcd takes
 * writes again. Exit code 0, 1 when etcd fails (one line on standard error), 2 for a usage or
 * configuration error.
 */
@Command(
    name = "etcd",
    mixinStandardHelpOptions = true,
    description = "Shows etcd's space and alarms, defragments it, disarms a NOSPACE alarm.")
public final class EtcdCommand implements Callable<Integer> {

  private static final long TIMEOUT_SECONDS = 60;

  @Parameters(index = "0", description = "status, defrag or disarm")
  String action;

  @Option(names = "--config", description = "the server's YAML configuration file")
  Path config;

  @Option(names = "--etcd-data-dir", description = "data of the embedded etcd (default ./var/etcd)")
  String dataDir;

  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, String> env;

  /** A command on standard output and error, with the process's environment. */
  public EtcdCommand() {
    this(System.out, System.err, System.getenv());
  }

  EtcdCommand(PrintStream out, PrintStream err, Map<String, String> env) {
    this.out = out;
    this.err = err;
    this.env = env;
  }

  @Override
  public Integer call() {
    if (!List.of("status", "defrag", "disarm").contains(action)) {
      err.println("bamel etcd: the action must be status, defrag or disarm");
      return 2;
    }
    ServerConfig cfg;
    try {
      Map<String, String> flags = new HashMap<>();
      if (dataDir != null) {
        flags.put("etcd.dataDir", dataDir);
      }
      cfg = ConfigLoader.load(config, env, flags);
    } catch (ConfigException e) {
      err.println("bamel etcd: " + e.getMessage());
      return 2;
    }
    ServerConfig.Etcd settings = cfg.etcd();
    List<String> endpoints = settings.endpoints();
    if (cfg.embeddedEtcd()) {
      EmbeddedEtcd embedded = EmbeddedEtcd.prepare(Path.of(settings.dataDir()));
      settings = embedded.clientSettings(settings);
      endpoints = settings.endpoints();
    }
    try (Client client = EtcdConnection.connect(settings, endpoints)) {
      Maintenance maintenance = client.getMaintenanceClient();
      switch (action) {
        case "status" -> status(maintenance, endpoints);
        case "defrag" -> defrag(maintenance, endpoints);
        default -> disarm(maintenance);
      }
      return 0;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      err.println("bamel etcd: " + action + " failed: " + cause.getMessage());
      return 1;
    }
  }

  private void status(Maintenance maintenance, List<String> endpoints) throws Exception {
    for (String endpoint : endpoints) {
      StatusResponse s = maintenance.statusMember(endpoint).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      out.printf(
          "%s  db %d MiB  in use %d MiB  version %s%n",
          endpoint, s.getDbSize() >> 20, s.getDbSizeInUse() >> 20, s.getVersion());
    }
    List<AlarmMember> alarms = alarms(maintenance);
    out.println(
        alarms.isEmpty()
            ? "alarms: none"
            : "alarms: "
                + String.join(
                    ", ",
                    alarms.stream()
                        .map(
                            a ->
                                a.getAlarmType()
                                    + " on member "
                                    + Long.toHexString(a.getMemberId()))
                        .toList()));
  }

  private void defrag(Maintenance maintenance, List<String> endpoints) throws Exception {
    for (String endpoint : endpoints) {
      long before =
          maintenance.statusMember(endpoint).get(TIMEOUT_SECONDS, TimeUnit.SECONDS).getDbSize();
      maintenance.defragmentMember(endpoint).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      long after =
          maintenance.statusMember(endpoint).get(TIMEOUT_SECONDS, TimeUnit.SECONDS).getDbSize();
      out.printf("%s  defragmented: db %d MiB -> %d MiB%n", endpoint, before >> 20, after >> 20);
    }
  }

  private void disarm(Maintenance maintenance) throws Exception {
    List<AlarmMember> alarms = alarms(maintenance);
    if (alarms.isEmpty()) {
      out.println("no alarm to disarm");
      return;
    }
    for (AlarmMember alarm : alarms) {
      maintenance.alarmDisarm(alarm).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      out.println("disarmed " + alarm.getAlarmType());
    }
  }

  private static List<AlarmMember> alarms(Maintenance maintenance) throws Exception {
    return maintenance.listAlarms().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).getAlarms().stream()
        .filter(a -> a.getAlarmType() != AlarmType.NONE)
        .toList();
  }
}
