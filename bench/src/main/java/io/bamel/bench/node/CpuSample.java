package io.bamel.bench.node;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The CPU time used so far by this JVM and by the whole machine, at one instant: two samples give
 * the CPU a stretch of work used, so that a benchmark on a shared machine can tell whether it was
 * bound by the CPU or by what it waited for. The machine's figures come from {@code /proc/stat}
 * (Linux); where it cannot be read they are 0 and {@link #machineBusy} answers {@code NaN}.
 *
 * @param wallNanos {@code System.nanoTime()} when taken
 * @param processCpuNanos CPU time of this JVM (all threads, user and system)
 * @param machineBusyTicks clock ticks all cores spent not idle (and not waiting for I/O)
 * @param machineTotalTicks clock ticks all cores spent in any state
 * @param loadAverage the one-minute load average, or a negative number where unavailable
 */
record CpuSample(
    long wallNanos,
    long processCpuNanos,
    long machineBusyTicks,
    long machineTotalTicks,
    double loadAverage) {

  private static final Path PROC_STAT = Path.of("/proc/stat");

  /** Takes a sample now. */
  static CpuSample now() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    long cpu =
        os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    long busy = 0;
    long total = 0;
    try {
      List<String> lines = Files.readAllLines(PROC_STAT);
      if (!lines.isEmpty() && lines.get(0).startsWith("cpu ")) {
        String[] f = lines.get(0).trim().split("\\s+");
        // user nice system idle iowait irq softirq steal (guest time is inside user already)
        for (int i = 1; i < Math.min(f.length, 9); i++) {
          long v = Long.parseLong(f[i]);
          total += v;
          if (i != 4 && i != 5) {
            busy += v;
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      busy = 0;
      total = 0;
    }
    return new CpuSample(System.nanoTime(), cpu, busy, total, os.getSystemLoadAverage());
  }

  /** The CPU time this JVM used between {@code earlier} and this sample, in milliseconds. */
  double processCpuMillisSince(CpuSample earlier) {
    return (processCpuNanos - earlier.processCpuNanos) / 1e6;
  }

  /**
   * The share of the machine's cores this JVM kept busy between {@code earlier} and this sample:
   * its CPU time over the wall time times the available processors (0 to 1).
   */
  double processShareSince(CpuSample earlier) {
    double wall = wallNanos - earlier.wallNanos;
    int cores = Runtime.getRuntime().availableProcessors();
    return wall <= 0 ? 0 : (processCpuNanos - earlier.processCpuNanos) / (wall * cores);
  }

  /**
   * The share of the machine's cores that anything (this JVM, etcd, other processes) kept busy
   * between {@code earlier} and this sample (0 to 1), or {@code NaN} where unknown.
   */
  double machineBusySince(CpuSample earlier) {
    long total = machineTotalTicks - earlier.machineTotalTicks;
    return total <= 0 ? Double.NaN : (double) (machineBusyTicks - earlier.machineBusyTicks) / total;
  }
}
