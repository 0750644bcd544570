package io.bamel.inventory.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Predicate;

/**
 * A registry whose scrapes leave out the gauges of a component ({@link MetricOwners}) while this
 * process takes part in that component's election but does not lead it. A gauge whose owner this
 * process does not take part in at all (a single process without elections, tests) is exported.
 * Collectors register as in any registry.
 */
public final class LeaderGatedRegistry extends PrometheusRegistry {

  private final Leaderships leaderships = new Leaderships();

  private LeaderGatedRegistry() {}

  /** An empty registry, with {@code bamel_leader} of its {@link #leaderships()} registered. */
  public static LeaderGatedRegistry create() {
    LeaderGatedRegistry registry = new LeaderGatedRegistry();
    registry.leaderships.register(registry);
    return registry;
  }

  /** The leaderships that gate this registry. */
  public Leaderships leaderships() {
    return leaderships;
  }

  /** Whether the metric named {@code name} is exported now. */
  public boolean exported(String name) {
    String owner = MetricOwners.ownerOf(name);
    return owner == null || leaderships.leads(owner).orElse(true);
  }

  @Override
  public MetricSnapshots scrape() {
    return super.scrape(this::exported);
  }

  @Override
  public MetricSnapshots scrape(PrometheusScrapeRequest request) {
    return super.scrape(this::exported, request);
  }

  @Override
  public MetricSnapshots scrape(Predicate<String> includedNames) {
    return super.scrape(includedNames.and(this::exported));
  }

  @Override
  public MetricSnapshots scrape(Predicate<String> includedNames, PrometheusScrapeRequest request) {
    return super.scrape(includedNames.and(this::exported), request);
  }
}
