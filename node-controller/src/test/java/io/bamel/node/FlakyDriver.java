package io.bamel.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.TransientPowerException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A driver that fails a share of calls with a transient BMC error before they reach the real driver
 * (so a failed call has no effect at the BMC), and counts the failures.
 */
final class FlakyDriver extends ForwardingDriver {

  private final double failureRate;
  private final Random random = new Random(42);
  private final AtomicInteger failures = new AtomicInteger();

  FlakyDriver(PowerDriver real, double failureRate) {
    super(real);
    this.failureRate = failureRate;
  }

  int failures() {
    return failures.get();
  }

  private void maybeFail(String what) throws TransientPowerException {
    boolean fail;
    synchronized (random) {
      fail = random.nextDouble() < failureRate;
    }
    if (fail) {
      failures.incrementAndGet();
      throw new TransientPowerException(PowerException.Reason.BMC_ERROR, what + ": injected 503");
    }
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    maybeFail("power state");
    return real.bmcPowerState(endpoint, deadline);
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    maybeFail("power on");
    real.powerOn(endpoint, deadline);
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    maybeFail("power off");
    real.powerOff(endpoint, mode, deadline);
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    maybeFail("power cycle");
    real.powerCycle(endpoint, deadline);
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    maybeFail("boot device");
    real.setBootDevice(endpoint, override, deadline);
  }
}
