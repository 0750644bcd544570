package io.bamel.bench;

import java.util.List;

/** Every benchmark of {@code make bench}, in the order they run. Add new ones here. */
final class BenchSuite {

  private BenchSuite() {}

  static List<Benchmark> all() {
    return List.of();
  }
}
