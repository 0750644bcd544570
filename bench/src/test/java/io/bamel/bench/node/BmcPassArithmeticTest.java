package io.bamel.bench.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.bamel.node.NodeControllerConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BmcPassArithmeticTest {

  @Test
  void theIdealPassIsEveryReadAtTheLatencyConcurrencyTimesReplicasAtOnce() {
    Duration second = Duration.ofSeconds(1);
    assertThat(BmcPassBenchmark.idealMillis(5_000, 1, 1, 64, second)).isEqualTo(78_125.0);
    assertThat(BmcPassBenchmark.idealMillis(5_000, 1, 3, 64, second))
        .isCloseTo(26_041.7, within(0.1));
    assertThat(BmcPassBenchmark.idealMillis(10_000, 1, 3, 64, Duration.ofMillis(100)))
        .isCloseTo(5_208.3, within(0.1));
  }

  @Test
  void theSyncIntervalIsTwiceTheIdealPassButNeverUnderTheFloor() {
    assertThat(BmcPassBenchmark.syncInterval(78_125, 60)).isEqualTo(Duration.ofSeconds(157));
    assertThat(BmcPassBenchmark.syncInterval(26_042, 60)).isEqualTo(Duration.ofSeconds(60));
    assertThat(BmcPassBenchmark.syncInterval(7_813, 20)).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void noDrawIsDueAgainWithinTheHarnesssBoundsNorSoonerThanShipped() {
    // 100,000 nodes at 100 ms on one replica: a 313 s interval, a 156 s ideal pass
    Duration first = Duration.ofSeconds(4 * 313 + 600);
    Duration timed = Duration.ofSeconds(3 * 313 + 1_563);
    assertThat(BmcPassBenchmark.drawInterval(first, timed)).isEqualTo(first.plus(timed));
    assertThat(BmcPassBenchmark.drawInterval(Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .isEqualTo(NodeControllerConfig.DEFAULTS.readingsInterval());
  }

  @Test
  void bothConfigurationsRunUnlessOneIsNamed() {
    assertThat(BmcPassBenchmark.configurations(null)).containsExactlyInAnyOrder(1, 3);
    assertThat(BmcPassBenchmark.configurations(" ")).containsExactlyInAnyOrder(1, 3);
    assertThat(BmcPassBenchmark.configurations("1")).containsExactly(1);
    assertThat(BmcPassBenchmark.configurations(" 3 ")).containsExactly(3);
    assertThat(BmcPassBenchmark.configurations("3,1")).containsExactlyInAnyOrder(1, 3);
    assertThatThrownBy(() -> BmcPassBenchmark.configurations("2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bench.bmcPassReplicas")
        .hasMessageContaining("'2'");
  }

  @Test
  void cpuSharesComeFromTheDifferenceOfTwoSamples() {
    int cores = Runtime.getRuntime().availableProcessors();
    CpuSample before = new CpuSample(1_000_000_000L, 5_000_000_000L, 300, 1_000, 1.0);
    CpuSample after =
        new CpuSample(11_000_000_000L, 5_000_000_000L + cores * 2_500_000_000L, 1_100, 2_000, 2.0);

    assertThat(after.processCpuMillisSince(before)).isEqualTo(cores * 2_500.0);
    assertThat(after.processShareSince(before)).isCloseTo(0.25, within(1e-9));
    assertThat(after.machineBusySince(before)).isCloseTo(0.8, within(1e-9));
  }

  @Test
  void theMachineShareIsUnknownWithoutProcStat() {
    CpuSample before = new CpuSample(0, 0, 0, 0, -1);
    CpuSample after = new CpuSample(1_000_000_000L, 100_000_000L, 0, 0, -1);
    assertThat(after.machineBusySince(before)).isNaN();
  }

  @Test
  void aLiveSampleReadsThisJvmsCpuAndTheMachine() {
    CpuSample first = CpuSample.now();
    long sum = 0;
    for (int i = 0; i < 5_000_000; i++) {
      sum += i % 7;
    }
    CpuSample second = CpuSample.now();
    assertThat(sum).isPositive();
    assertThat(second.processCpuMillisSince(first)).isPositive();
    assertThat(second.machineTotalTicks()).isGreaterThanOrEqualTo(first.machineTotalTicks());
  }
}
