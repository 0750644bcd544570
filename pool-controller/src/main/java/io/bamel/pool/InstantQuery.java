package io.bamel.pool;

import java.io.IOException;
import java.util.List;

/** Runs a PromQL instant query and returns one value per series (empty: no data). */
@FunctionalInterface
public interface InstantQuery {

  /**
   * Evaluates {@code promql} now.
   *
   * @throws IOException when Prometheus cannot be reached or refuses the query
   */
  List<Double> query(String promql) throws IOException;
}
