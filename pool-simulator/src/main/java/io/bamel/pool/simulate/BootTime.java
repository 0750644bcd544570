package io.bamel.pool.simulate;

import java.util.random.RandomGenerator;

/**
 * How long a server takes from power-on to a Ready Kubernetes node (POST, boot, kubelet join),
 * drawn once per server and run, uniformly between two bounds. The default, 2 to 8 minutes, is the
 * span vendors give for enterprise servers' POST plus an OS boot and join.
 *
 * @param minSeconds the shortest
 * @param maxSeconds the longest
 */
public record BootTime(long minSeconds, long maxSeconds) {

  /** 2 to 8 minutes. */
  public static final BootTime DEFAULT = new BootTime(120, 480);

  /** Checks the bounds. */
  public BootTime {
    if (minSeconds <= 0 || maxSeconds < minSeconds) {
      throw new IllegalArgumentException(
          "a boot time needs 0 < min <= max seconds: " + minSeconds + ".." + maxSeconds);
    }
  }

  /** One server's boot time. */
  public long draw(RandomGenerator random) {
    return minSeconds == maxSeconds
        ? minSeconds
        : minSeconds + random.nextLong(maxSeconds - minSeconds + 1);
  }
}
