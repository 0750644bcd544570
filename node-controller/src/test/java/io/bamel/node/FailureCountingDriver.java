package io.bamel.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Passes every call to the real driver (including {@link #execute}, so its report reaches the
 * controller) and records every failure as {@code operation reason: message}, and counts reads.
 */
final class FailureCountingDriver extends ForwardingDriver {

  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger draws = new AtomicInteger();

  FailureCountingDriver(PowerDriver real) {
    super(real);
  }

  List<String> failures() {
    return List.copyOf(failures);
  }

  int reads() {
    return reads.get();
  }

  int draws() {
    return draws.get();
  }

  private interface Call<T> {
    T run() throws PowerException;
  }

  private <T> T record(String op, Call<T> call) throws PowerException {
    try {
      return call.run();
    } catch (PowerException e) {
      failures.add(op + " " + e.reason() + ": " + e.getMessage());
      throw e;
    }
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    reads.incrementAndGet();
    return record("status", () -> real.bmcPowerState(endpoint, deadline));
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    record("on", () -> real.execute(PowerCommand.on(), endpoint, deadline));
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    record("off", () -> real.execute(PowerCommand.off(mode), endpoint, deadline));
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    record("cycle", () -> real.execute(PowerCommand.cycle(), endpoint, deadline));
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    record("boot", () -> real.execute(PowerCommand.boot(override), endpoint, deadline));
  }

  @Override
  public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return record(command.operation().label(), () -> real.execute(command, endpoint, deadline));
  }

  @Override
  public HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return record("inspect", () -> real.inspect(endpoint, deadline));
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    draws.incrementAndGet();
    return record("power_draw", () -> real.powerDraw(endpoint, deadline));
  }
}
