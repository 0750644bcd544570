package io.bamel.inventory.logging;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Decides which failures of a repeated operation are worth a log line: the first failure of a cause
 * for a subject (a node, a pool, the Kubernetes API) is a warning; repeats of the same cause are
 * suppressed and counted, and repeated (with the count) at most every {@code repeatEvery} while the
 * cause persists; a different cause warns at once; the first success after failures is one recovery
 * notice. Pure decision logic: time comes in as an argument, nothing is logged here ({@link
 * FailureLog} does the logging).
 *
 * <p>Memory: only failing subjects are remembered, one small entry each; a recovery or {@link
 * #forget} drops the entry. At most {@code maxSubjects} are remembered: past that the subject whose
 * failure began first is forgotten (its next failure warns again). Thread-safe.
 */
public final class FailureNotices {

  /** The default number of failing subjects remembered: a fleet of 100,000 nodes all failing. */
  public static final int DEFAULT_MAX_SUBJECTS = 100_000;

  /** The default time between two warnings about the same persisting cause. */
  public static final Duration DEFAULT_REPEAT = Duration.ofMinutes(15);

  /** What to log about one outcome. */
  public enum Kind {
    /** A new failure, or a new cause: a warning. */
    WARN,
    /** The same cause again, within the repeat interval: nothing logged, counted. */
    SUPPRESS,
    /** The same cause still, a repeat interval after the last warning: a warning with the count. */
    REPEAT,
    /** The first success after failures: one notice. */
    RECOVER,
    /** A success, with no failure before it: nothing to log. */
    NONE
  }

  /**
   * One decision.
   *
   * @param kind what to log
   * @param cause the failure's cause (for {@link Kind#RECOVER}: the cause that ended), or null
   * @param previousCause the cause before a change of cause ({@link Kind#WARN} only), or null
   * @param suppressed failures not logged since the last warning ({@link Kind#REPEAT}, {@link
   *     Kind#RECOVER}), else 0
   * @param failingFor time since the subject's first failure of this cause ({@link Kind#REPEAT},
   *     {@link Kind#RECOVER}), else zero
   */
  public record Notice(
      Kind kind, String cause, String previousCause, long suppressed, Duration failingFor) {

    static final Notice NONE = new Notice(Kind.NONE, null, null, 0, Duration.ZERO);

    /** Whether the notice is logged (anything but {@link Kind#SUPPRESS} and {@link Kind#NONE}). */
    public boolean logged() {
      return kind != Kind.SUPPRESS && kind != Kind.NONE;
    }
  }

  /** What is remembered of a failing subject: epoch milliseconds, to keep entries small. */
  private static final class Failing {
    final String cause;
    final long since;
    long lastWarned;
    long suppressed;

    Failing(String cause, long now) {
      this.cause = cause;
      this.since = now;
      this.lastWarned = now;
    }
  }

  private final long repeatMillis;
  private final Map<String, Failing> failing;

  /** Notices repeated every {@link #DEFAULT_REPEAT}, for {@link #DEFAULT_MAX_SUBJECTS}. */
  public FailureNotices() {
    this(DEFAULT_REPEAT, DEFAULT_MAX_SUBJECTS);
  }

  /**
   * Notices repeated every {@code repeatEvery} (positive) while a cause persists, remembering at
   * most {@code maxSubjects} (positive) failing subjects.
   */
  public FailureNotices(Duration repeatEvery, int maxSubjects) {
    if (repeatEvery.isNegative() || repeatEvery.isZero() || maxSubjects < 1) {
      throw new IllegalArgumentException("repeatEvery and maxSubjects must be positive");
    }
    this.repeatMillis = repeatEvery.toMillis();
    this.failing =
        new LinkedHashMap<>(16, 0.75f, false) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Failing> eldest) {
            return size() > maxSubjects;
          }
        };
  }

  /** {@code subject} failed at {@code now} because of {@code cause} (a short, stable word). */
  public synchronized Notice failed(String subject, String cause, Instant now) {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(cause, "cause");
    long t = now.toEpochMilli();
    Failing f = failing.get(subject);
    if (f == null || !f.cause.equals(cause)) {
      failing.remove(subject); // re-inserted last: the eviction order follows the newest cause
      failing.put(subject, new Failing(cause, t));
      return new Notice(Kind.WARN, cause, f == null ? null : f.cause, 0, Duration.ZERO);
    }
    if (t - f.lastWarned >= repeatMillis) {
      long suppressed = f.suppressed;
      f.suppressed = 0;
      f.lastWarned = t;
      return new Notice(Kind.REPEAT, cause, null, suppressed, Duration.ofMillis(t - f.since));
    }
    f.suppressed++;
    return new Notice(Kind.SUPPRESS, cause, null, f.suppressed, Duration.ofMillis(t - f.since));
  }

  /** {@code subject} succeeded at {@code now}. */
  public synchronized Notice recovered(String subject, Instant now) {
    Failing f = failing.remove(subject);
    if (f == null) {
      return Notice.NONE;
    }
    return new Notice(
        Kind.RECOVER,
        f.cause,
        null,
        f.suppressed,
        Duration.ofMillis(Math.max(0, now.toEpochMilli() - f.since)));
  }

  /** Forgets {@code subject} (removed, or no longer this process's): nothing is logged. */
  public synchronized void forget(String subject) {
    failing.remove(subject);
  }

  /** Whether {@code subject} is remembered as failing. */
  public synchronized boolean isFailing(String subject) {
    return failing.containsKey(subject);
  }

  /** How many subjects are remembered as failing. */
  public synchronized int size() {
    return failing.size();
  }
}
