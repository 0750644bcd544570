package io.bamel.power.ipmi.rmcp;

import java.time.Duration;

/**
 * How long to wait for each answer and how often to send a request again: a request goes out at
 * most {@code attempts} times, each followed by a wait of {@code timeout} (1 s as ipmitool's
 * lanplus and freeipmi wait by default), and never past the caller's deadline.
 *
 * @param timeout the wait after each transmission
 * @param attempts how many times a request is sent, at least 1
 */
public record Retransmission(Duration timeout, int attempts) {

  /** Checks the values. */
  public Retransmission {
    if (timeout.isNegative() || timeout.isZero() || attempts < 1) {
      throw new IllegalArgumentException("retransmission needs a timeout and 1 attempt or more");
    }
  }

  /** 1 s, 4 attempts. */
  public static Retransmission defaults() {
    return new Retransmission(Duration.ofSeconds(1), 4);
  }
}
