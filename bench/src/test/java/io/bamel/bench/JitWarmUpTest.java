package io.bamel.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class JitWarmUpTest {

  private static JitWarmUp.Pass pass(long wallMillis, long compileMillis) {
    return new JitWarmUp.Pass(wallMillis, compileMillis);
  }

  @Test
  void aPassIsCalmOnlyUnderFivePercentOfItsWallTimeCompiling() {
    assertThat(pass(1000, 49).calm()).isTrue();
    assertThat(pass(1000, 50).calm()).isFalse();
    assertThat(pass(1000, 0).calm()).isTrue();
  }

  @Test
  void theJitIsSteadyAfterTwoCalmPassesInARowAndNotBefore() {
    assertThat(JitWarmUp.steady(List.of())).isFalse();
    assertThat(JitWarmUp.steady(List.of(pass(1000, 0)))).isFalse();
    assertThat(JitWarmUp.steady(List.of(pass(1000, 900), pass(1000, 10), pass(1000, 20)))).isTrue();
    assertThat(JitWarmUp.steady(List.of(pass(1000, 10), pass(1000, 300), pass(1000, 20))))
        .isFalse();
    assertThat(JitWarmUp.steady(List.of(pass(1000, 10), pass(1000, 20), pass(1000, 300))))
        .isFalse();
  }

  @Test
  void everyActionRunsInEachPassAfterItsPrepareAndTheBoundHolds() throws Exception {
    AtomicInteger prepared = new AtomicInteger();
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger otherRuns = new AtomicInteger();
    Timer.Trial counted =
        new Timer.Trial() {
          @Override
          public void prepare() {
            prepared.incrementAndGet();
          }

          @Override
          public void run() throws InterruptedException {
            runs.incrementAndGet();
            Thread.sleep(30);
          }
        };
    Timer.Trial other = otherRuns::incrementAndGet;

    JitWarmUp.WarmUpReport outcome = JitWarmUp.run(List.of(counted, other), 1);

    assertThat(outcome.passes()).isEqualTo(1);
    assertThat(outcome.steady()).isFalse();
    // Each action has the pass's slice of 200 ms to itself: a 30 ms run fits about 7 times.
    assertThat(runs.get()).isBetween(2, 7).isEqualTo(prepared.get());
    assertThat(otherRuns.get()).isPositive();
    assertThat(outcome.wallMillis()).isGreaterThanOrEqualTo(2 * JitWarmUp.SLICE_NANOS / 1_000_000);
  }
}
