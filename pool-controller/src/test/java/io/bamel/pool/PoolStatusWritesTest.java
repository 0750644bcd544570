package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.PoolCondition;
import io.bamel.inventory.model.PoolStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** When a pool status alone is written: a table on a fake clock. */
class PoolStatusWritesTest {

  private static final Instant T0 = Instant.parse("2026-11-26T02:00:00Z");
  private static final PoolStatusWrites RULE = PoolStatusWrites.DEFAULTS;

  private static PoolStatus status(double cpu, double memory) {
    return PoolStatus.builder()
        .readyNodes(10)
        .pendingNodes(0)
        .desiredNodes(10)
        .utilization(new TreeMap<>(Map.of("cpu", cpu, "memory", memory)))
        .conditions(
            List.of(new PoolCondition("UtilizationKnown", "True", "Measured", "m", T0, null)))
        .build();
  }

  private static final PoolStatus WRITTEN = status(0.50, 0.40);

  private record Row(String what, UnaryOperator<PoolStatus> next, Duration age, boolean due) {}

  @Test
  void onlyUtilizationWithinToleranceAndYoungerThanMaxAgeIsHeldBack() {
    List<Row> rows =
        List.of(
            new Row("unchanged", s -> s, Duration.ofSeconds(15), false),
            new Row("unchanged, old", s -> s, Duration.ofHours(1), false),
            new Row("cpu +1 point", s -> status(0.51, 0.40), Duration.ofSeconds(15), false),
            new Row(
                "cpu -2 points exactly", s -> status(0.48, 0.40), Duration.ofSeconds(15), false),
            new Row("memory +2.01 points", s -> status(0.50, 0.4201), Duration.ofSeconds(15), true),
            new Row("cpu -5 points", s -> status(0.45, 0.40), Duration.ofSeconds(15), true),
            new Row(
                "cpu +1 point, 4m59s old", s -> status(0.51, 0.40), Duration.ofSeconds(299), false),
            new Row(
                "cpu +1 point, 5 min old", s -> status(0.51, 0.40), Duration.ofMinutes(5), true),
            new Row(
                "a resource appears",
                s ->
                    s.toBuilder()
                        .utilization(Map.of("cpu", 0.5, "memory", 0.4, "gpu", 0.1))
                        .build(),
                Duration.ofSeconds(15),
                true),
            new Row(
                "utilization unknown now",
                s -> s.toBuilder().utilization(Map.of()).build(),
                Duration.ofSeconds(15),
                true),
            new Row(
                "a count changes with a small utilization move",
                s -> status(0.51, 0.40).toBuilder().readyNodes(11).build(),
                Duration.ofSeconds(15),
                true),
            new Row(
                "a condition changes",
                s ->
                    s.toBuilder()
                        .conditions(
                            List.of(
                                new PoolCondition(
                                    "UtilizationKnown", "False", "Unknown", "m", T0, null)))
                        .build(),
                Duration.ofSeconds(15),
                true),
            new Row(
                "the memory (an extension) changes",
                s -> s.toBuilder().extensions(Map.of("lowSince", T0.toString())).build(),
                Duration.ofSeconds(15),
                true));
    for (Row row : rows) {
      PoolStatus next = row.next().apply(WRITTEN);
      assertThat(RULE.due(WRITTEN, T0, next, T0.plus(row.age())))
          .as(row.what())
          .isEqualTo(row.due());
    }
  }

  @Test
  void withoutAWrittenStatusOrItsTimeAnyChangeIsWritten() {
    assertThat(RULE.due(null, null, WRITTEN, T0)).isTrue();
    assertThat(RULE.due(WRITTEN, null, status(0.51, 0.40), T0)).isTrue();
    assertThat(RULE.due(WRITTEN, null, WRITTEN, T0)).isFalse();
  }

  @Test
  void everyChangeWritesEveryDifferenceAndNothingElse() {
    PoolStatusWrites every = PoolStatusWrites.EVERY_CHANGE;
    assertThat(every.due(WRITTEN, T0, status(0.5001, 0.40), T0)).isTrue();
    assertThat(every.due(WRITTEN, T0, WRITTEN, T0)).isFalse();
    assertThat(new PoolStatusWrites(0.02, Duration.ZERO).due(WRITTEN, T0, status(0.51, 0.4), T0))
        .as("max age zero")
        .isTrue();
  }

  @Test
  void badBoundsAreRefused() {
    assertThatThrownBy(() -> new PoolStatusWrites(-0.01, Duration.ZERO))
        .hasMessageContaining("utilizationTolerance");
    assertThatThrownBy(() -> new PoolStatusWrites(1.5, Duration.ZERO))
        .hasMessageContaining("utilizationTolerance");
    assertThatThrownBy(() -> new PoolStatusWrites(Double.NaN, Duration.ZERO))
        .hasMessageContaining("utilizationTolerance");
    assertThatThrownBy(() -> new PoolStatusWrites(0.02, Duration.ofSeconds(-1)))
        .hasMessageContaining("maxAge");
  }
}
