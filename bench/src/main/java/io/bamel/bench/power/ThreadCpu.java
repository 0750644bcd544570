package io.bamel.bench.power;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of the bench JVM's live threads between two snapshots, summed by whose work it is:
 * the driver's (bamel's side of a read: the bench's calling threads, which run the request, the TLS
 * client and the response parsing, and OkHttp's and Okio's own threads), the simulated BMCs' (the
 * carrier threads of the virtual threads the simulator serves every connection on: the server's
 * side of the TLS handshakes and of each request) and the rest. A thread that ended between the
 * snapshots is missing from every sum, as are the JVM's own GC and JIT threads: the process CPU
 * time minus the sums covers them.
 */
final class ThreadCpu {

  /** Whose work a thread does. */
  enum Role {
    DRIVER,
    SIMULATOR,
    OTHER
  }

  /** The name prefix of the bench's calling threads. */
  static final String CALLER_PREFIX = "bench-read-";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Map<Long, Long> start;

  private ThreadCpu(Map<Long, Long> start) {
    this.start = start;
  }

  /** Whose work the thread named {@code name} does. */
  static Role role(String name) {
    if (name.startsWith(CALLER_PREFIX) || name.startsWith("OkHttp") || name.startsWith("Okio")) {
      return Role.DRIVER;
    }
    // virtual threads' carriers: ForkJoinPool-1-worker-1 (not the common pool's threads)
    if (name.startsWith("ForkJoinPool-") && name.contains("-worker-")) {
      return Role.SIMULATOR;
    }
    return Role.OTHER;
  }

  /** A snapshot of every live thread's CPU time (empty where the JVM does not measure it). */
  static ThreadCpu snapshot() {
    Map<Long, Long> cpu = new HashMap<>();
    if (THREADS.isThreadCpuTimeSupported()) {
      for (long id : THREADS.getAllThreadIds()) {
        long nanos = THREADS.getThreadCpuTime(id);
        if (nanos >= 0) {
          cpu.put(id, nanos);
        }
      }
    }
    return new ThreadCpu(cpu);
  }

  /** The CPU time used since this snapshot by the threads alive now, in nanoseconds per role. */
  Map<Role, Long> since() {
    Map<Role, Long> sums = new HashMap<>();
    for (Role role : Role.values()) {
      sums.put(role, 0L);
    }
    ThreadMXBean threads = THREADS;
    for (long id : threads.getAllThreadIds()) {
      long nanos = threads.getThreadCpuTime(id);
      ThreadInfo info = threads.getThreadInfo(id);
      if (nanos < 0 || info == null) {
        continue;
      }
      long used = nanos - start.getOrDefault(id, 0L);
      sums.merge(role(info.getThreadName()), used, Long::sum);
    }
    return sums;
  }
}
