package io.bamel.power;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The instant by which a power call must finish, read against an injectable clock. Every {@link
 * PowerDriver} call takes one; a driver never waits past it.
 */
public final class Deadline {

  private final Clock clock;
  private final Instant at;

  private Deadline(Clock clock, Instant at) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.at = Objects.requireNonNull(at, "at");
  }

  /** A deadline {@code timeout} from now on the system clock. */
  public static Deadline in(Duration timeout) {
    return in(timeout, Clock.systemUTC());
  }

  /** A deadline {@code timeout} from now on {@code clock}. */
  public static Deadline in(Duration timeout, Clock clock) {
    return new Deadline(clock, clock.instant().plus(timeout));
  }

  /** The instant itself. */
  public Instant at() {
    return at;
  }

  /** The clock this deadline is read against. */
  public Clock clock() {
    return clock;
  }

  /** The time left, never negative. */
  public Duration remaining() {
    Duration left = Duration.between(clock.instant(), at);
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** Whether no time is left. */
  public boolean expired() {
    return remaining().isZero();
  }

  /** The sooner of this deadline and {@code timeout} from now. */
  public Deadline atMost(Duration timeout) {
    Instant other = clock.instant().plus(timeout);
    return other.isBefore(at) ? new Deadline(clock, other) : this;
  }

  /**
   * Throws a transient {@link PowerException.Reason#TIMEOUT} failure naming {@code what} when no
   * time is left.
   */
  public void check(String what) throws TransientPowerException {
    if (expired()) {
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, what + ": deadline passed");
    }
  }

  @Override
  public String toString() {
    return "Deadline[" + at + "]";
  }
}
