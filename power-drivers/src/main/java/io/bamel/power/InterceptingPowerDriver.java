package io.bamel.power;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A driver that passes every call to the driver it wraps through one hook, {@link #around}: the
 * wrappers that count, time, record or hold calls (the registry's metrics, tests' counting drivers,
 * benchmarks' recorders) write that hook once instead of restating each method of {@link
 * PowerDriver}. {@link #execute} goes to the wrapped driver's own {@code execute} (so its report of
 * what was sent comes back), as {@link PowerCommand#operation()}; {@link #powerInterface} and
 * {@link #close} are passed on as they are.
 */
public abstract class InterceptingPowerDriver implements PowerDriver {

  /** The wrapped driver. */
  protected final PowerDriver delegate;

  /** Wraps {@code delegate}. */
  protected InterceptingPowerDriver(PowerDriver delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** One call of the wrapped driver. */
  @FunctionalInterface
  protected interface Call<T> {
    /** Makes the call. */
    T run() throws PowerException;
  }

  /**
   * Makes {@code call}, the {@code operation} for {@code endpoint}, with whatever the wrapper adds
   * before and after it; returns what the call returned (null for the actions).
   */
  protected abstract <T> T around(PowerOperation operation, BmcEndpoint endpoint, Call<T> call)
      throws PowerException;

  @Override
  public String powerInterface() {
    return delegate.powerInterface();
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return around(
        PowerOperation.STATUS, endpoint, () -> delegate.bmcPowerState(endpoint, deadline));
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    around(
        PowerOperation.ON,
        endpoint,
        () -> {
          delegate.powerOn(endpoint, deadline);
          return null;
        });
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    around(
        PowerOperation.OFF,
        endpoint,
        () -> {
          delegate.powerOff(endpoint, mode, deadline);
          return null;
        });
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    around(
        PowerOperation.CYCLE,
        endpoint,
        () -> {
          delegate.powerCycle(endpoint, deadline);
          return null;
        });
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    around(
        PowerOperation.BOOT,
        endpoint,
        () -> {
          delegate.setBootDevice(endpoint, override, deadline);
          return null;
        });
  }

  @Override
  public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return around(
        command.operation(), endpoint, () -> delegate.execute(command, endpoint, deadline));
  }

  @Override
  public HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return around(PowerOperation.INSPECT, endpoint, () -> delegate.inspect(endpoint, deadline));
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return around(
        PowerOperation.POWER_DRAW, endpoint, () -> delegate.powerDraw(endpoint, deadline));
  }

  @Override
  public void close() {
    delegate.close();
  }
}
