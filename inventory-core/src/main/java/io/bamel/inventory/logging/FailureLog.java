package io.bamel.inventory.logging;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Logs the failures of one repeated operation ({@code action}: a BMC call, a trigger query, a
 * Kubernetes read) per subject as {@link FailureNotices} decides: a WARN at the first failure of a
 * cause, naming the subject and the reason; silence (counted) while it repeats; a WARN with the
 * count every repeat interval while it persists; one INFO at recovery. Each line carries the
 * subject ({@code node}, {@code pool}, ... as {@code subjectField}), {@code action}, {@code reason}
 * and {@code cause} as key-value pairs (top-level fields of JSON logs) and says the same as {@code
 * key=value} text in its message. Thread-safe.
 */
public final class FailureLog {

  private final Logger log;
  private final String subjectField;
  private final String action;
  private final Clock clock;
  private final FailureNotices notices;

  /**
   * A log of {@code action}'s failures on {@code log}, subjects named by {@code subjectField}
   * ({@code node}, {@code pool}, {@code component}), deciding with {@code notices} at {@code
   * clock}'s time.
   */
  public FailureLog(
      Logger log, String subjectField, String action, Clock clock, FailureNotices notices) {
    this.log = Objects.requireNonNull(log, "log");
    this.subjectField = Objects.requireNonNull(subjectField, "subjectField");
    this.action = Objects.requireNonNull(action, "action");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.notices = Objects.requireNonNull(notices, "notices");
  }

  /** With the default repeat interval and bound ({@link FailureNotices#FailureNotices()}). */
  public FailureLog(Logger log, String subjectField, String action, Clock clock) {
    this(log, subjectField, action, clock, new FailureNotices());
  }

  /**
   * {@code subject}'s {@code action} failed: {@code cause} is a short stable word (an error class,
   * such as {@code UNREACHABLE}: a change of cause warns again), {@code reason} the text for a
   * person (no secret). Returns what was decided.
   */
  public FailureNotices.Notice failed(String subject, String cause, String reason) {
    String why = reason == null || reason.isBlank() ? cause : reason;
    FailureNotices.Notice n = notices.failed(subject, cause, clock.instant());
    switch (n.kind()) {
      case WARN ->
          fields(log.atWarn(), subject, cause, why)
              .log(
                  "{} failed: {}={} cause={}{} reason=\"{}\"",
                  action,
                  subjectField,
                  subject,
                  cause,
                  n.previousCause() == null ? "" : " previousCause=" + n.previousCause(),
                  why);
      case REPEAT ->
          fields(log.atWarn(), subject, cause, why)
              .addKeyValue("suppressed", n.suppressed())
              .log(
                  "{} still failing: {}={} cause={} for={} suppressed={} reason=\"{}\"",
                  action,
                  subjectField,
                  subject,
                  cause,
                  minutes(n.failingFor()),
                  n.suppressed(),
                  why);
      default -> {}
    }
    return n;
  }

  /** {@code subject}'s {@code action} succeeded: an INFO if it was failing. */
  public FailureNotices.Notice recovered(String subject) {
    FailureNotices.Notice n = notices.recovered(subject, clock.instant());
    if (n.kind() == FailureNotices.Kind.RECOVER) {
      log.atInfo()
          .addKeyValue(subjectField, subject)
          .addKeyValue("action", action)
          .addKeyValue("cause", n.cause())
          .addKeyValue("suppressed", n.suppressed())
          .log(
              "{} recovered: {}={} cause={} after={} suppressed={}",
              action,
              subjectField,
              subject,
              n.cause(),
              minutes(n.failingFor()),
              n.suppressed());
    }
    return n;
  }

  /** Forgets {@code subject} (deleted, or no longer this process's) without logging. */
  public void forget(String subject) {
    notices.forget(subject);
  }

  /** Whether {@code subject} is remembered as failing. */
  public boolean isFailing(String subject) {
    return notices.isFailing(subject);
  }

  private LoggingEventBuilder fields(
      LoggingEventBuilder b, String subject, String cause, String reason) {
    return b.addKeyValue(subjectField, subject)
        .addKeyValue("action", action)
        .addKeyValue("cause", cause)
        .addKeyValue("reason", reason);
  }

  /** A duration as whole minutes and seconds, such as {@code 15m0s}. */
  static String minutes(Duration d) {
    return d.toMinutes() + "m" + d.toSecondsPart() + "s";
  }
}
