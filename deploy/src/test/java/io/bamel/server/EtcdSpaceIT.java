package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.inventory.maintenance.EtcdSpace;
import io.bamel.inventory.maintenance.EtcdSpaceMonitor;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.CompactOption;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd running out of space, on a real etcd with a 16 MiB backend quota: bamel's monitor names the
 * NOSPACE alarm (level, one line, gauge), and {@code bamel etcd} shows it, defragments and disarms
 * it, after which etcd takes writes again.
 */
class EtcdSpaceIT {

  private static final long QUOTA = 16L * 1024 * 1024;

  @Test
  void aFullEtcdIsNamedAndCanBeRecoveredWithBamelEtcd(@TempDir Path dir) throws Exception {
    EtcdProcess.Config config =
        EtcdProcess.Config.single(
                "space", dir.resolve("etcd"), EtcdProcess.freePort(), EtcdProcess.freePort())
            .withMaintenance(new EtcdProcess.Maintenance(Duration.ofHours(1), QUOTA));
    try (EtcdProcess etcd = new EtcdProcess(config).start().awaitHealthy();
        Client client = Client.builder().endpoints(etcd.clientUrl()).build()) {
      KV kv = client.getKVClient();
      EtcdSpaceMonitor monitor =
          new EtcdSpaceMonitor(
              client.getMaintenanceClient(),
              List.of(etcd.clientUrl()),
              QUOTA,
              Duration.ofSeconds(5));
      PrometheusRegistry registry = new PrometheusRegistry();
      monitor.register(registry);
      assertThat(monitor.poll().level()).isEqualTo(EtcdSpace.Level.OK);

      byte[] big = new byte[512 * 1024];
      Arrays.fill(big, (byte) 'x');
      ByteSequence key = ByteSequence.from("/baremetal/filler", StandardCharsets.UTF_8);
      long lastRevision = 0;
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 200; i++) {
                  big[0] = (byte) i;
                  kv.put(key, ByteSequence.from(big)).get(10, TimeUnit.SECONDS);
                }
              })
          .hasMessageContaining("database space exceeded");

      EtcdSpace full = monitor.poll();
      assertThat(full.level()).isEqualTo(EtcdSpace.Level.ALARM);
      assertThat(full.alarms()).containsExactly("NOSPACE");
      assertThat(full.problem()).contains("NOSPACE", "refuses every write");
      assertThat(alarmGauge(registry, "NOSPACE")).isEqualTo(1.0);

      Map<String, String> env =
          Map.of("BAMEL_ETCD_ENDPOINTS", etcd.clientUrl(), "BAMEL_AUTH_ANONYMOUS_READ", "true");
      assertThat(run(env, "status")).contains("alarms: NOSPACE");

      // Recovery as docs/operations.md describes it: compact, defragment, disarm.
      lastRevision = kv.get(key).get(10, TimeUnit.SECONDS).getHeader().getRevision();
      kv.compact(lastRevision, CompactOption.DEFAULT).get(30, TimeUnit.SECONDS);
      assertThat(run(env, "defrag")).contains("defragmented");
      assertThat(run(env, "disarm")).contains("disarmed NOSPACE");
      kv.put(key, ByteSequence.from("small", StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
      assertThat(monitor.poll().level()).isEqualTo(EtcdSpace.Level.OK);
      assertThat(run(env, "status")).contains("alarms: none");
    }
  }

  private static String run(Map<String, String> env, String action) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new picocli.CommandLine(
                new EtcdCommand(
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8),
                    env))
            .execute(action);
    assertThat(code).as("bamel etcd %s: %s", action, err.toString(StandardCharsets.UTF_8)).isZero();
    return out.toString(StandardCharsets.UTF_8);
  }

  private static double alarmGauge(PrometheusRegistry registry, String type) {
    for (MetricSnapshot snapshot : registry.scrape()) {
      if (snapshot.getMetadata().getName().equals("bamel_etcd_alarm")) {
        for (GaugeSnapshot.GaugeDataPointSnapshot point :
            ((GaugeSnapshot) snapshot).getDataPoints()) {
          if (type.equals(point.getLabels().get("type"))) {
            return point.getValue();
          }
        }
      }
    }
    throw new AssertionError("no bamel_etcd_alarm{type=" + type + "}");
  }
}
