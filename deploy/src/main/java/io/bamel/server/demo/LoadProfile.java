package io.bamel.server.demo;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * A synthetic workload for one pool of the demo: a number of identical pods that rises and falls as
 * a raised cosine between {@code minPods} and {@code maxPods} over {@code period}, starting at the
 * minimum. Pure: {@link #podsAt} depends only on the elapsed time.
 *
 * @param pool the pool the pods select ({@code bamel.io/pool})
 * @param minPods the fewest pods
 * @param maxPods the most pods
 * @param period one full rise and fall
 * @param requests each pod's requests in base units ({@code cpu} cores, {@code memory} bytes,
 *     {@code nvidia.com/gpu})
 */
public record LoadProfile(
    String pool, int minPods, int maxPods, Duration period, Map<String, BigDecimal> requests) {

  /** Copies the requests. */
  public LoadProfile {
    requests = Map.copyOf(requests);
  }

  /** How many pods the workload wants {@code elapsed} after the start. */
  public int podsAt(Duration elapsed) {
    double phase = (double) (elapsed.toMillis() % period.toMillis()) / period.toMillis();
    double level = (1 - Math.cos(2 * Math.PI * phase)) / 2;
    return (int) Math.round(minPods + level * (maxPods - minPods));
  }
}
