package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.pool.Resources;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The upper-bound reserve's rules ({@link ArrivalReserve}) and its forecasts, by hand. */
class ArrivalReserveTest {

  /** An inner autoscaler that always decides the same. */
  private static Autoscaler deciding(List<String> on, List<String> off) {
    return new Autoscaler() {
      @Override
      public String name() {
        return "fixed";
      }

      @Override
      public Decision decide(ClusterState state) {
        return new Decision(on, off);
      }
    };
  }

  private static ArrivalReserve reserve(Autoscaler inner, double cores) {
    return new ArrivalReserve(
        "r", inner, "cpu", now -> Resources.of("cpu", cores, "memory", cores * SimFixtures.GIB));
  }

  /** Two Ready servers, 14 and 64 cores free: 78 in all. */
  private static SimFixtures twoReady() {
    return new SimFixtures(4).ready(0, 0).ready(1, 0).pod(0, 50, 0);
  }

  @Test
  void switchesOnTheFirstOffServerWhenTheFreeRoomIsBelowTheReserve() {
    var d = reserve(deciding(List.of(), List.of()), 100).decide(twoReady().at(100));
    assertThat(d.powerOn()).containsExactly("cpu-002");
    assertThat(d.powerOff()).isEmpty();
  }

  @Test
  void switchesOnAsManyAsTheReserveLacks() {
    var d = reserve(deciding(List.of(), List.of()), 150).decide(twoReady().at(100));
    assertThat(d.powerOn()).containsExactly("cpu-002", "cpu-003");
  }

  @Test
  void addsNothingWhenTheFreeRoomHoldsTheReserve() {
    var d = reserve(deciding(List.of(), List.of()), 78).decide(twoReady().at(100));
    assertThat(d.powerOn()).isEmpty();
  }

  @Test
  void pendingPodsTakeFromTheFreeRoom() {
    SimFixtures c = twoReady().pending(70);
    assertThat(reserve(deciding(List.of(), List.of()), 10).decide(c.at(100)).powerOn())
        .containsExactly("cpu-002");
  }

  @Test
  void serversComingUpAndThoseTheInnerSwitchesOnCount() {
    SimFixtures c = twoReady().booting(2, 50);
    assertThat(reserve(deciding(List.of(), List.of()), 100).decide(c.at(100)).powerOn()).isEmpty();
    Autoscaler on = deciding(List.of("cpu-003"), List.of());
    assertThat(reserve(on, 142).decide(twoReady().at(100)).powerOn()).containsExactly("cpu-003");
    assertThat(reserve(on, 143).decide(twoReady().at(100)).powerOn())
        .containsExactly("cpu-003", "cpu-002");
  }

  @Test
  void keepsAPowerOffThatLeavesTheReserveAndDropsOneThatDoesNot() {
    Autoscaler off = deciding(List.of(), List.of("cpu-001"));
    assertThat(reserve(off, 14).decide(twoReady().at(100)).powerOff()).containsExactly("cpu-001");
    var d = reserve(off, 20).decide(twoReady().at(100));
    assertThat(d.powerOff()).isEmpty();
    assertThat(d.powerOn()).isEmpty();
  }

  @Test
  void withChunksOnlyWholeChunksOfFreeCoresCount() {
    Autoscaler none = deciding(List.of(), List.of());
    Resources seventy = Resources.of("cpu", 70);
    var all = new ArrivalReserve("r", none, "cpu", now -> seventy).decide(twoReady().at(100));
    assertThat(all.powerOn()).isEmpty(); // 14 + 64 free
    var chunks =
        new ArrivalReserve("r", none, "cpu", now -> seventy, 16).decide(twoReady().at(100));
    assertThat(chunks.powerOn()).containsExactly("cpu-002"); // 0 + 64 in chunks of 16
  }

  @Test
  void theExactForecastIsWhatStartsWithinTheHorizon() {
    PodTrace trace =
        new PodTrace(
            List.of(
                PodRecord.of("a", 0, OptionalLong.empty(), 2000, 1024, 0),
                PodRecord.of("b", 100, OptionalLong.empty(), 8000, 1024, 0),
                PodRecord.of("c", 500, OptionalLong.empty(), 4000, 1024, 0)));
    Fleet fleet = SimFixtures.cpuFleet(2, 300);
    ArrivalForecast f = ArrivalForecast.exact(Workload.of(trace, fleet), "cpu", 1, 480);
    assertThat(f.reserve(50).get("cpu")).isEqualTo(12); // b and c; a was there at the start
    assertThat(f.reserve(100).get("cpu")).isEqualTo(4); // b started: the scheduler has it
    assertThat(f.reserve(0).get("cpu")).isEqualTo(8); // c starts past the horizon
    assertThat(f.reserve(500).isEmpty()).isTrue();
  }

  @Test
  void theRateForecastFollowsTheDayAndTheQuantile() {
    WorkloadProfile p = WorkloadProfile.alibabaGpuV2023();
    double night = ArrivalForecast.rate(p, 0.9, 1, 480).reserve(4 * 3600).get("cpu");
    double peak = ArrivalForecast.rate(p, 0.9, 1, 480).reserve(16 * 3600).get("cpu");
    double peak99 = ArrivalForecast.rate(p, 0.99, 1, 480).reserve(16 * 3600).get("cpu");
    double quietDay = ArrivalForecast.rate(p, 0.9, 1, 480).reserve((6 * 24 + 16) * 3600).get("cpu");
    assertThat(night).isPositive().isLessThan(peak);
    assertThat(quietDay).isLessThan(peak);
    assertThat(peak99).isGreaterThan(peak);
  }
}
