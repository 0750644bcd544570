package io.bamel.power;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;

/**
 * The metrics of every power call: {@code bamel_power_operations_total{interface,operation,result}}
 * ({@code result} is {@code ok}, {@code transient} or {@code terminal}) and {@code
 * bamel_power_operation_duration_seconds{interface,operation}}. Labels never carry a node's address
 * or a secret.
 */
public final class PowerMetrics {

  /** Result label of a call that succeeded. */
  public static final String OK = "ok";

  /** Result label of a call that failed transiently. */
  public static final String TRANSIENT = "transient";

  /** Result label of a call that failed terminally. */
  public static final String TERMINAL = "terminal";

  private final Counter operations;
  private final Histogram duration;

  /** Registers the metrics on {@code registry}. */
  public PowerMetrics(PrometheusRegistry registry) {
    this.operations =
        Counter.builder()
            .name("bamel_power_operations_total")
            .help("Power driver calls by interface, operation and result")
            .labelNames("interface", "operation", "result")
            .register(registry);
    this.duration =
        Histogram.builder()
            .name("bamel_power_operation_duration_seconds")
            .help("Duration of power driver calls")
            .labelNames("interface", "operation")
            .classicUpperBounds(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)
            .register(registry);
  }

  /** Registers the metrics on {@link PrometheusRegistry#defaultRegistry}. */
  public static PowerMetrics onDefaultRegistry() {
    return new PowerMetrics(PrometheusRegistry.defaultRegistry);
  }

  /** Records one call. */
  public void record(
      String powerInterface, PowerOperation operation, String result, Duration elapsed) {
    operations.labelValues(powerInterface, operation.label(), result).inc();
    duration
        .labelValues(powerInterface, operation.label())
        .observe(elapsed.toNanos() / 1_000_000_000.0);
  }

  /** The count of calls so far with these labels (for tests and the CLI). */
  public long count(String powerInterface, PowerOperation operation, String result) {
    return (long) operations.labelValues(powerInterface, operation.label(), result).get();
  }
}
