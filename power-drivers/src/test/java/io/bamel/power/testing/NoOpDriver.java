package io.bamel.power.testing;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerOffMode;

/**
 * A driver with no BMC behind it, for unit tests of what wraps, registers or records drivers: every
 * power action is accepted and does nothing, and so does {@link #close}. A subclass says what a
 * power-state read answers and overrides whatever else its test needs.
 */
public abstract class NoOpDriver implements PowerDriver {

  private final String powerInterface;

  /** A driver that serves {@code powerInterface}. */
  protected NoOpDriver(String powerInterface) {
    this.powerInterface = powerInterface;
  }

  @Override
  public String powerInterface() {
    return powerInterface;
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) {}

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline) {}

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) {}

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline) {}

  @Override
  public void close() {}
}
