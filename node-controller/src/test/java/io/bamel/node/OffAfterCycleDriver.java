package io.bamel.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.InterceptingPowerDriver;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOperation;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A BMC whose power cycle passes through off, as many real ones do (the simulated one goes straight
 * to powering on): for {@code window} after a power cycle, status reads of that BMC report off.
 * Counts the reads so answered.
 */
final class OffAfterCycleDriver extends InterceptingPowerDriver {

  private final Duration window;
  private final Map<String, Long> offUntil = new ConcurrentHashMap<>();
  private final AtomicInteger offReported = new AtomicInteger();

  OffAfterCycleDriver(PowerDriver real, Duration window) {
    super(real);
    this.window = window;
  }

  /** How many status reads reported off because of a cycle. */
  int offReported() {
    return offReported.get();
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    BmcPowerState state = super.bmcPowerState(endpoint, deadline);
    Long until = offUntil.get(endpoint.address());
    if (until != null && System.nanoTime() - until < 0) {
      offReported.incrementAndGet();
      return BmcPowerState.OFF;
    }
    return state;
  }

  /** Starts the off window once a power cycle (its method or {@code execute}) was accepted. */
  @Override
  protected <T> T around(PowerOperation operation, BmcEndpoint endpoint, Call<T> call)
      throws PowerException {
    T result = call.run();
    if (operation == PowerOperation.CYCLE) {
      offUntil.put(endpoint.address(), System.nanoTime() + window.toNanos());
    }
    return result;
  }
}
