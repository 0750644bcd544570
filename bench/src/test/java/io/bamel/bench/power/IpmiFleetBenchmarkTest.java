package io.bamel.bench.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.power.sim.IpmiSimulator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The IPMI fleet benchmark's code path on two ipmi_sim BMCs and three rounds: both sides read every
 * BMC (the benchmark fails a round otherwise) and each row, the first round's included, has its
 * figures. No speed is asserted.
 */
class IpmiFleetBenchmarkTest {

  @Test
  void parsesChildCpuFromProcStat() {
    String stat =
        "4242 (java (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 30 7 3 20 0 40 0 100 0 0";
    assertThat(ProcessCpu.childrenMillis(stat)).isEqualTo(100.0);
  }

  @Test
  void readsATinyFleetWithBothClients() throws Exception {
    assumeTrue(!"1".equals(System.getenv("BAMEL_SKIP_IPMI")), "IPMI tests skipped");
    assumeTrue(IpmiSimulator.available(), "ipmi_sim and ipmitool are needed");
    System.setProperty("bench.power.ipmi.fleet", "2");
    System.setProperty("bench.power.ipmi.fleet.runs", "3");
    try {
      List<BenchResult> rows = new IpmiFleetBenchmark().run(new BenchContext());
      assertThat(rows)
          .extracting(BenchResult::benchmark)
          .containsExactly(
              "ipmi-fleet-status", "ipmi-fleet-status-cpu", "ipmi-fleet-status-cpu-first-round");
      assertThat(rows.get(0).bamel()).isPositive();
      assertThat(rows.get(0).baseline()).isPositive();
      assertThat(rows.get(1).bamel()).isPositive();
      // the JVM's first round is reported on its own (ipmipower's side is counted in clock ticks
      // of its children, which one short round of two BMCs may not reach)
      assertThat(rows.get(2).bamel()).isPositive();
    } finally {
      System.clearProperty("bench.power.ipmi.fleet");
      System.clearProperty("bench.power.ipmi.fleet.runs");
    }
  }
}
