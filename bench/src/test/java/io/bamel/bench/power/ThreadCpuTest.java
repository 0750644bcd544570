package io.bamel.bench.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

  @Test
  void theCallersAndOkHttpsThreadsAreTheDriversTheVirtualThreadCarriersTheSimulators() {
    assertThat(ThreadCpu.role("bench-read-12")).isEqualTo(ThreadCpu.Role.DRIVER);
    assertThat(ThreadCpu.role("OkHttp TaskRunner")).isEqualTo(ThreadCpu.Role.DRIVER);
    assertThat(ThreadCpu.role("Okio Watchdog")).isEqualTo(ThreadCpu.Role.DRIVER);
    assertThat(ThreadCpu.role("ForkJoinPool-1-worker-3")).isEqualTo(ThreadCpu.Role.SIMULATOR);
    assertThat(ThreadCpu.role("ForkJoinPool.commonPool-worker-1")).isEqualTo(ThreadCpu.Role.OTHER);
    assertThat(ThreadCpu.role("grpc-default-executor-0")).isEqualTo(ThreadCpu.Role.OTHER);
  }

  @Test
  void aThreadsCpuSinceTheSnapshotIsCountedUnderItsRole() throws Exception {
    ThreadCpu before = ThreadCpu.snapshot();
    CountDownLatch busy = new CountDownLatch(1);
    CountDownLatch measured = new CountDownLatch(1);
    Thread worker =
        Thread.ofPlatform()
            .name(ThreadCpu.CALLER_PREFIX + "test")
            .start(
                () -> {
                  var threads = ManagementFactory.getThreadMXBean();
                  long x = 0;
                  while (threads.getCurrentThreadCpuTime() < 20_000_000L) {
                    x += System.identityHashCode(new Object());
                  }
                  busy.countDown();
                  try {
                    measured.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  if (x == 42) {
                    System.out.print("");
                  }
                });
    busy.await();
    long driver = before.since().get(ThreadCpu.Role.DRIVER);
    measured.countDown();
    worker.join();
    assertThat(driver).isGreaterThanOrEqualTo(20_000_000L);
  }
}
