package io.bamel.power;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalDouble;

/** A {@link PowerDriver} that counts and times every call of the driver it wraps. */
public final class InstrumentedPowerDriver implements PowerDriver {

  private final PowerDriver delegate;
  private final PowerMetrics metrics;
  private final Clock clock;

  /** Wraps {@code delegate}, timing calls with {@code clock}. */
  public InstrumentedPowerDriver(PowerDriver delegate, PowerMetrics metrics, Clock clock) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The wrapped driver. */
  public PowerDriver delegate() {
    return delegate;
  }

  @FunctionalInterface
  private interface Call<T> {
    T run() throws PowerException;
  }

  /** A driver call that returns nothing. */
  @FunctionalInterface
  private interface Action {
    void run() throws PowerException;
  }

  private void timedAction(PowerOperation operation, Action action) throws PowerException {
    timed(
        operation,
        () -> {
          action.run();
          return null;
        });
  }

  private <T> T timed(PowerOperation operation, Call<T> call) throws PowerException {
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

  @Override
  public String powerInterface() {
    return delegate.powerInterface();
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return timed(PowerOperation.STATUS, () -> delegate.bmcPowerState(endpoint, deadline));
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    timedAction(PowerOperation.ON, () -> delegate.powerOn(endpoint, deadline));
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    timedAction(PowerOperation.OFF, () -> delegate.powerOff(endpoint, mode, deadline));
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    timedAction(PowerOperation.CYCLE, () -> delegate.powerCycle(endpoint, deadline));
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    timedAction(PowerOperation.BOOT, () -> delegate.setBootDevice(endpoint, override, deadline));
  }

  @Override
  public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return timed(command.operation(), () -> delegate.execute(command, endpoint, deadline));
  }

  @Override
  public HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return timed(PowerOperation.INSPECT, () -> delegate.inspect(endpoint, deadline));
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return timed(PowerOperation.POWER_DRAW, () -> delegate.powerDraw(endpoint, deadline));
  }

  @Override
  public void close() {
    delegate.close();
  }
}
