package io.bamel.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.InterceptingPowerDriver;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOperation;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Passes every call to the real driver (including {@link #execute}, so its report reaches the
 * controller) and records every failure as {@code operation reason: message}, and counts reads.
 */
final class FailureCountingDriver extends InterceptingPowerDriver {

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

  @Override
  protected <T> T around(PowerOperation operation, BmcEndpoint endpoint, Call<T> call)
      throws PowerException {
    switch (operation) {
      case STATUS -> reads.incrementAndGet();
      case POWER_DRAW -> draws.incrementAndGet();
      default -> {}
    }
    try {
      return call.run();
    } catch (PowerException e) {
      failures.add(operation.label() + " " + e.reason() + ": " + e.getMessage());
      throw e;
    }
  }
}
