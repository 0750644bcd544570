package io.bamel.inventory.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LeaderTimerTest {

  /**
   * During shutdown the compactor's timer is closed before its leadership ends, and losing the
   * leadership then asks the timer to reset the schedule: that is dropped, not thrown (it was a
   * WARN with a RejectedExecutionException at every `bamel demo` stop).
   */
  @Test
  void anActionAfterCloseIsDroppedAndBeforeCloseRuns() throws Exception {
    LeaderTimer timer =
        new LeaderTimer("leader-timer-test", "test", LoggerFactory.getLogger(getClass()));
    CountDownLatch ran = new CountDownLatch(1);
    timer.execute(ran::countDown);
    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();

    timer.close();
    AtomicBoolean after = new AtomicBoolean();
    timer.execute(() -> after.set(true));
    Thread.sleep(100);
    assertThat(after).isFalse();
  }
}
