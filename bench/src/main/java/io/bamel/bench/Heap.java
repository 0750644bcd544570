package io.bamel.bench;

import java.lang.management.ManagementFactory;

/** The heap a benchmark's subject holds: used heap after full collections. */
public final class Heap {

  private Heap() {}

  /** Used heap in bytes after three {@code System.gc()} calls 200 ms apart. */
  public static long usedAfterGc() throws InterruptedException {
    var memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  /** Bytes in MiB. */
  public static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
