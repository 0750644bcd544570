package io.bamel.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.testing.NoOpDriver;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class PowerDriverRegistryTest {

  /** A driver whose answers the test sets. */
  static final class ScriptedDriver extends NoOpDriver {
    PowerException failure;
    final AtomicBoolean closed = new AtomicBoolean();

    ScriptedDriver() {
      super("scripted");
    }

    @Override
    public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
        throws PowerException {
      if (failure != null) {
        throw failure;
      }
      return BmcPowerState.ON;
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  private final PrometheusRegistry prometheus = new PrometheusRegistry();
  private final PowerDriverRegistry registry =
      new PowerDriverRegistry(new PowerMetrics(prometheus), Clock.systemUTC());
  private final ScriptedDriver scripted = new ScriptedDriver();
  private final BmcEndpoint endpoint = BmcEndpoint.of("192.0.2.1", "secret-name");
  private final Deadline deadline = Deadline.in(Duration.ofSeconds(1));

  @Test
  void picksTheDriverByInterfaceIgnoringCase() throws Exception {
    registry.register(scripted);
    assertThat(registry.driver("Scripted").bmcPowerState(endpoint, deadline))
        .isEqualTo(BmcPowerState.ON);
    assertThat(registry.interfaces()).containsExactly("scripted");
  }

  @Test
  void anUnknownInterfaceIsTerminalUnsupported() {
    assertThatThrownBy(() -> registry.driver("snmp"))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNSUPPORTED));
  }

  @Test
  void countsAndTimesEveryCallByResult() throws Exception {
    registry.register(scripted);
    PowerDriver driver = registry.driver("scripted");
    driver.bmcPowerState(endpoint, deadline);
    driver.bmcPowerState(endpoint, deadline);
    scripted.failure = new TransientPowerException(PowerException.Reason.BUSY, "busy");
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint, deadline));
    scripted.failure = new TerminalPowerException(PowerException.Reason.BAD_CREDENTIALS, "no");
    assertThatThrownBy(() -> driver.bmcPowerState(endpoint, deadline));
    driver.powerOn(endpoint, deadline);
    assertThatThrownBy(() -> driver.inspect(endpoint, deadline))
        .isInstanceOf(TerminalPowerException.class);

    PowerMetrics metrics = registry.metrics();
    assertThat(metrics.count("scripted", PowerOperation.STATUS, "ok")).isEqualTo(2);
    assertThat(metrics.count("scripted", PowerOperation.STATUS, "transient")).isEqualTo(1);
    assertThat(metrics.count("scripted", PowerOperation.STATUS, "terminal")).isEqualTo(1);
    assertThat(metrics.count("scripted", PowerOperation.ON, "ok")).isEqualTo(1);
    assertThat(metrics.count("scripted", PowerOperation.INSPECT, "terminal")).isEqualTo(1);

    MetricSnapshots snapshots = prometheus.scrape();
    CounterSnapshot counter = (CounterSnapshot) find(snapshots, "bamel_power_operations");
    assertThat(counter.getDataPoints())
        .allSatisfy(
            p -> {
              assertThat(p.getLabels().get("interface")).isEqualTo("scripted");
              assertThat(p.getLabels().toString()).doesNotContain("secret-name", "192.0.2.1");
            });
    HistogramSnapshot histogram =
        (HistogramSnapshot) find(snapshots, "bamel_power_operation_duration_seconds");
    assertThat(histogram.getDataPoints())
        .anySatisfy(
            p -> {
              assertThat(p.getLabels().get("operation")).isEqualTo("status");
              assertThat(p.getCount()).isEqualTo(4);
            });
  }

  @Test
  void closeClosesTheDrivers() {
    registry.register(scripted);
    registry.close();
    assertThat(scripted.closed).isTrue();
  }

  private static MetricSnapshot find(MetricSnapshots snapshots, String name) {
    return snapshots.stream()
        .filter(s -> s.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
