package io.bamel.inventory.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class LeaderGatedRegistryTest {

  private static String scrape(LeaderGatedRegistry registry) {
    return new String(
        new MetricsEndpoint(registry).scrape("text/plain").body(), StandardCharsets.UTF_8);
  }

  @Test
  void aComponentsGaugesAreExportedByItsLeaderOnlyAndCountersByEveryone() {
    LeaderGatedRegistry registry = LeaderGatedRegistry.create();
    AtomicBoolean leads = new AtomicBoolean(false);
    registry.leaderships().add("pool-controller", leads::get);
    registry.leaderships().add("etcd-maintenance", () -> true);
    Gauge.builder()
        .name("bamel_pool_nodes")
        .labelNames("pool", "state")
        .register(registry)
        .labelValues("gpu", "ready")
        .set(3);
    Counter.builder()
        .name("bamel_scale_decisions_total")
        .labelNames("pool")
        .register(registry)
        .labelValues("gpu")
        .inc();
    Gauge.builder().name("bamel_pools").register(registry).set(1);

    String standby = scrape(registry);
    assertThat(standby)
        .doesNotContain("bamel_pool_nodes")
        .contains("bamel_scale_decisions_total{pool=\"gpu\"} 1.0")
        .contains("bamel_pools 1.0")
        .contains("bamel_leader{component=\"pool-controller\"} 0.0")
        .contains("bamel_leader{component=\"etcd-maintenance\"} 1.0");

    leads.set(true);
    assertThat(scrape(registry))
        .contains("bamel_pool_nodes{pool=\"gpu\",state=\"ready\"} 3.0")
        .contains("bamel_leader{component=\"pool-controller\"} 1.0");
  }

  @Test
  void aGaugeWhoseOwnerThisProcessDoesNotRunIsExported() {
    LeaderGatedRegistry registry = LeaderGatedRegistry.create();
    Gauge.builder()
        .name("bamel_node_power_watts")
        .labelNames("node")
        .register(registry)
        .labelValues("n1")
        .set(250);
    assertThat(registry.exported("bamel_node_power_watts")).isTrue();
    assertThat(scrape(registry)).contains("bamel_node_power_watts{node=\"n1\"} 250.0");
    registry.leaderships().add("node-controller", () -> false);
    assertThat(scrape(registry)).doesNotContain("bamel_node_power_watts{");
  }

  @Test
  void ownersAreTheDocumentedOnes() {
    assertThat(MetricOwners.ownerOf("bamel_nodes")).isEqualTo("etcd-maintenance");
    assertThat(MetricOwners.ownerOf("bamel_pool_threshold_ratio")).isEqualTo("pool-controller");
    assertThat(MetricOwners.ownerOf("bamel_netbox_last_pull_timestamp_seconds"))
        .isEqualTo("netbox-sync");
    assertThat(MetricOwners.ownerOf("bamel_http_requests")).isNull();
    assertThat(MetricOwners.ownerOf("bamel_inventory_revision")).isNull();
  }

  @Test
  void buildInfoIsOneAndJvmAndProcessMetricsAreThere() {
    LeaderGatedRegistry registry = LeaderGatedRegistry.create();
    BuildInfo.register(registry);
    BuildInfo.register(registry); // a second server on the same registry changes nothing
    String text = scrape(registry);
    assertThat(text)
        .containsPattern(
            "bamel_build_info\\{java_version=\"[^\"]+\",revision=\"[^\"]+\","
                + "version=\"0\\.1\\.0-SNAPSHOT\"} 1")
        .contains("jvm_memory_used_bytes{")
        .contains("jvm_threads_current")
        .contains("process_cpu_seconds_total")
        .contains("process_start_time_seconds");
  }
}
