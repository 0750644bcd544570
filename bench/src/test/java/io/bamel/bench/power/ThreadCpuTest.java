package io.bamel.bench.power;

import static org.assertj.core.api.Assertions.assertThat;

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
    Thread worker =
        Thread.ofPlatform()
            .name(ThreadCpu.CALLER_PREFIX + "test")
            .start(
                () -> {
                  long end = System.nanoTime() + 50_000_000L;
                  long x = 0;
                  while (System.nanoTime() < end) {
                    x += System.identityHashCode(new Object());
                  }
                  if (x == 42) {
                    System.out.print("");
                  }
                });
    Thread.sleep(30);
    long driver = before.since().get(ThreadCpu.Role.DRIVER);
    worker.join();
    assertThat(driver).isGreaterThan(5_000_000L);
  }
}
