package io.bamel.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import java.util.OptionalDouble;

/**
 * A driver that passes every call to {@link #real}: the tests' wrapping drivers (counting, failing,
 * holding calls) override only the calls they change. {@link PowerDriver#execute} is not forwarded,
 * so a command goes through the wrapper's own methods.
 */
abstract class ForwardingDriver implements PowerDriver {

  /** The driver the calls go to. */
  protected final PowerDriver real;

  ForwardingDriver(PowerDriver real) {
    this.real = real;
  }

  @Override
  public String powerInterface() {
    return real.powerInterface();
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return real.bmcPowerState(endpoint, deadline);
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    real.powerOn(endpoint, deadline);
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    real.powerOff(endpoint, mode, deadline);
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    real.powerCycle(endpoint, deadline);
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    real.setBootDevice(endpoint, override, deadline);
  }

  @Override
  public HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return real.inspect(endpoint, deadline);
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return real.powerDraw(endpoint, deadline);
  }

  @Override
  public void close() {
    real.close();
  }
}
