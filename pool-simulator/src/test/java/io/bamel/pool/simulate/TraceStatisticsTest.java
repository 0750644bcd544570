package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Every figure below is computed by hand in the comments, not by the code under test. */
class TraceStatisticsTest {
  private static PodRecord pod(String name, long created, Long deleted, long cpuMilli) {
    return PodRecord.of(
        name,
        created,
        deleted == null ? OptionalLong.empty() : OptionalLong.of(deleted),
        cpuMilli,
        1024 * cpuMilli / 1000,
        0);
  }

  // a alive at the start; d alive at the end (no deletion); e never scheduled. Ends at 10800.
  private static final PodTrace TRACE =
      new PodTrace(
          List.of(
              pod("e", 7000, 10800L, 1000).withScheduled(OptionalLong.empty()),
              pod("a", 0, 7200L, 2000),
              pod("b", 600, 1200L, 1000),
              pod("c", 1800, 5400L, 4000),
              pod("d", 4000, null, 3000)));

  @Test
  void arrivalsLeaveOutPodsAliveAtTheStart() {
    assertThat(TRACE.start()).isZero();
    assertThat(TRACE.end()).isEqualTo(10800);
    assertThat(TraceStatistics.arrivals(TRACE))
        .extracting(PodRecord::name)
        .containsExactly("b", "c", "d", "e");
    // hour 0: b (600), c (1800); hour 1: d (4000), e (7000); hour 2: none
    assertThat(TraceStatistics.arrivalsPerHour(TRACE)).containsExactly(2, 2, 0);
    TraceStatistics.Summary hourly = TraceStatistics.hourlyArrivals(TRACE);
    assertThat(hourly.median()).isEqualTo(2); // sorted 0,2,2: rank ceil(1.5) = 2
    assertThat(hourly.mean()).isCloseTo(4 / 3.0, within(1e-12));
    assertThat(hourly.max()).isEqualTo(2);
  }

  @Test
  void perPodFigures() {
    TraceStatistics.Summary cpu = TraceStatistics.cpuCores(TRACE);
    // b 1, c 4, d 3, e 1 -> sorted 1,1,3,4
    assertThat(cpu.count()).isEqualTo(4);
    assertThat(cpu.median()).isEqualTo(1); // rank 2
    assertThat(cpu.mean()).isEqualTo(2.25);
    assertThat(cpu.p90()).isEqualTo(4); // rank ceil(3.6) = 4
    assertThat(cpu.max()).isEqualTo(4);
    assertThat(TraceStatistics.memoryGiB(TRACE).median()).isEqualTo(1);

    // lifetimes of arrivals with a deletion: b 600, c 3600, e 3800 (d has none)
    TraceStatistics.Summary lifetimes = TraceStatistics.lifetimes(TRACE);
    assertThat(lifetimes.count()).isEqualTo(3);
    assertThat(lifetimes.median()).isEqualTo(3600);
    assertThat(lifetimes.max()).isEqualTo(3800);
    assertThat(TraceStatistics.shareEndingWithin(TRACE, 600)).isCloseTo(1 / 3.0, within(1e-12));
    assertThat(TraceStatistics.shareEndingWithin(TRACE, 3600)).isCloseTo(2 / 3.0, within(1e-12));
  }

  @Test
  void concurrencyBySweep() {
    // cores: 0-600 2, 600-1200 3, 1200-1800 2, 1800-4000 6, 4000-5400 9, 5400-7000 5,
    // 7000-7200 6, 7200-10800 4 (d and e to the end)
    double area = 2 * 600 + 3 * 600 + 2 * 600 + 6 * 2200 + 9 * 1400 + 5 * 1600 + 6 * 200 + 4 * 3600;
    assertThat(area).isEqualTo(53600);
    TraceStatistics.Concurrency cpu = TraceStatistics.concurrentCpuCores(TRACE);
    assertThat(cpu.peak()).isEqualTo(9);
    assertThat(cpu.mean()).isCloseTo(53600 / 10800.0, within(1e-9));
  }

  @Test
  void aPodEndingWhenAnotherStartsDoesNotOverlapIt() {
    PodTrace handOver = new PodTrace(List.of(pod("x", 0, 100L, 1000), pod("y", 100, 200L, 1000)));
    TraceStatistics.Concurrency cpu = TraceStatistics.concurrentCpuCores(handOver);
    assertThat(cpu.peak()).isEqualTo(1);
    assertThat(cpu.mean()).isEqualTo(1);
  }

  @Test
  void nearestRankQuantiles() {
    double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(TraceStatistics.quantile(sorted, 0.5)).isEqualTo(5);
    assertThat(TraceStatistics.quantile(sorted, 0.9)).isEqualTo(9);
    assertThat(TraceStatistics.quantile(sorted, 0.91)).isEqualTo(10);
    assertThat(TraceStatistics.quantile(sorted, 0)).isEqualTo(1);
  }

  @Test
  void hourOfDaySwingSmoothsEachHourWithItsNeighbours() {
    // one day: 2 pods in hours 0-11, 8 in hours 12-23; smoothed hours 11 and 23 straddle:
    // busiest 8, quietest 2 -> 4
    java.util.List<PodRecord> pods = new java.util.ArrayList<>();
    pods.add(pod("first", 0, 86400L, 1000));
    int n = 0;
    for (int hour = 0; hour < 24; hour++) {
      for (int i = 0; i < (hour < 12 ? 2 : 8); i++) {
        pods.add(pod("p" + n++, hour * 3600L + 1 + i, 86400L, 1000));
      }
    }
    PodTrace day = new PodTrace(pods);
    assertThat(TraceStatistics.arrivalsPerHour(day)).hasSize(24);
    assertThat(TraceStatistics.hourOfDaySwing(day)).isEqualTo(4);
  }
}
