package io.bamel.power;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** A {@link PowerDriver} that counts and times every call of the driver it wraps. */
public final class InstrumentedPowerDriver extends InterceptingPowerDriver {

  private final PowerMetrics metrics;
  private final Clock clock;

  /** Wraps {@code delegate}, timing calls with {@code clock}. */
  public InstrumentedPowerDriver(PowerDriver delegate, PowerMetrics metrics, Clock clock) {
    super(delegate);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The wrapped driver. */
  public PowerDriver delegate() {
    return delegate;
  }

  @Override
  protected <T> T around(PowerOperation operation, BmcEndpoint endpoint, Call<T> call)
      throws PowerException {
    Instant start = clock.instant();
    String result = PowerMetrics.TERMINAL;
    try {
      T value = call.run();
      result = PowerMetrics.OK;
      return value;
    } catch (PowerException e) {
      result = e.isTransient() ? PowerMetrics.TRANSIENT : PowerMetrics.TERMINAL;
      throw e;
    } finally {
      metrics.record(
          delegate.powerInterface(), operation, result, Duration.between(start, clock.instant()));
    }
  }
}
