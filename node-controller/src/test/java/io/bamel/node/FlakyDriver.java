package io.bamel.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.InterceptingPowerDriver;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOperation;
import io.bamel.power.TransientPowerException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A driver that fails a share of calls with a transient BMC error before they reach the real driver
 * (so a failed call has no effect at the BMC), and counts the failures. Each status read and each
 * power action ({@code execute} or its method) draws once from a seeded random; inspections and
 * power readings are passed on without a draw.
 */
final class FlakyDriver extends InterceptingPowerDriver {

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

  @Override
  protected <T> T around(PowerOperation operation, BmcEndpoint endpoint, Call<T> call)
      throws PowerException {
    String what =
        switch (operation) {
          case STATUS -> "power state";
          case ON, OFF, CYCLE -> "power " + operation.label();
          case BOOT -> "boot device";
          case INSPECT, POWER_DRAW -> null; // never fails
        };
    if (what != null) {
      maybeFail(what);
    }
    return call.run();
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
}
