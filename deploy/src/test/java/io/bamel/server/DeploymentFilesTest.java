package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The shipped deployment files are well-formed and name only metrics bamel exports. */
class DeploymentFilesTest {

  /** Every metric family bamel registers (counters without their _total suffix too). */
  static final Set<String> METRICS =
      Set.of(
          "bamel_nodes",
          "bamel_node_transitions_total",
          "bamel_reconcile_total",
          "bamel_reconcile_duration_seconds",
          "bamel_workqueue_depth",
          "bamel_power_drift_total",
          "bamel_leader",
          "bamel_node_power_watts",
          "bamel_power_operations_total",
          "bamel_power_operation_duration_seconds",
          "bamel_pool_nodes",
          "bamel_pool_desired_nodes",
          "bamel_pool_utilization_ratio",
          "bamel_pool_pending_pods",
          "bamel_scale_decisions_total",
          "bamel_pool_decision_duration_seconds",
          "bamel_pool_power_watts",
          "bamel_energy_saved_joules_total",
          "bamel_http_requests_total",
          "bamel_http_request_duration_seconds");

  @Test
  void grafanaDashboardParsesAndUsesKnownMetrics() throws Exception {
    JsonNode dashboard =
        new ObjectMapper().readTree(Path.of("grafana/bamel-dashboard.json").toFile());
    assertThat(dashboard.get("panels").size()).isGreaterThanOrEqualTo(10);
    Set<String> used = new TreeSet<>();
    Pattern metric = Pattern.compile("bamel_[a-z_]+");
    for (JsonNode panel : dashboard.get("panels")) {
      assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
      for (JsonNode target : panel.get("targets")) {
        Matcher m = metric.matcher(target.get("expr").asText());
        while (m.find()) {
          used.add(m.group().replaceAll("_(bucket|count|sum)$", ""));
        }
      }
    }
    assertThat(METRICS).containsAll(used);
    assertThat(used)
        .contains(
            "bamel_nodes",
            "bamel_pool_utilization_ratio",
            "bamel_energy_saved_joules_total",
            "bamel_power_operations_total");
  }

  @Test
  void systemdUnitRunsTheServerWithItsConfig() throws Exception {
    String unit = Files.readString(Path.of("systemd/bamel.service"));
    assertThat(unit)
        .contains("ExecStart=/opt/bamel/bin/bamel server --config /etc/bamel/config.yaml");
    assertThat(unit).contains("KillSignal=SIGTERM").contains("NoNewPrivileges=true");
  }
}
