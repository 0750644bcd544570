package io.bamel.bench.power;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of this JVM and of the child processes it has waited for (Linux {@code /proc/self/stat}
 * fields {@code cutime} and {@code cstime}, in clock ticks of 10 ms), so that a read in process and
 * a read by a started program are costed alike.
 */
final class ProcessCpu {

  private static final double MILLIS_PER_TICK = 10.0;

  private ProcessCpu() {}

  /** This JVM's CPU time so far, in ms. */
  static double selfMillis() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime() / 1e6;
    }
    return Double.NaN;
  }

  /** The CPU time of the waited-for children so far, in ms. */
  static double childrenMillis() throws IOException {
    return childrenMillis(Files.readString(Path.of("/proc/self/stat")));
  }

  /** {@code cutime + cstime} of a {@code /proc/PID/stat} line, in ms. */
  static double childrenMillis(String stat) {
    // the command name (field 2) may hold spaces: count fields after its closing parenthesis
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
    // fields[0] is field 3 (state); cutime is field 16, cstime field 17
    return (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) * MILLIS_PER_TICK;
  }
}
