package io.bamel.node;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.UntrustedText;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import io.bamel.power.TerminalPowerException;
import java.time.Duration;
import java.util.OptionalDouble;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;

/**
 * The BMC of one node for one reconciliation: its driver and endpoint, built once, and the calls
 * made to it. Each call holds one of the controller's BMC permits ({@link
 * NodeControllerConfig#bmcConcurrency()}) while it runs, and ends by its deadline ({@link
 * NodeControllerConfig#bmcCallTimeout()}, real time: BMC calls are real I/O). Once the controller
 * is closing, no read begins (a reconciliation waiting for a permit to read gives up at once),
 * while a power action, whose status was written ahead, still goes through.
 */
final class NodeBmc {

  private final PowerDriver driver;
  private final BmcEndpoint endpoint;
  private final PowerException unusable;
  private final String whyUnusable;
  private final Semaphore permits;
  private final Duration callTimeout;
  private final BooleanSupplier closing;

  private NodeBmc(
      PowerDriver driver,
      BmcEndpoint endpoint,
      PowerException unusable,
      String whyUnusable,
      Semaphore permits,
      Duration callTimeout,
      BooleanSupplier closing) {
    this.driver = driver;
    this.endpoint = endpoint;
    this.unusable = unusable;
    this.whyUnusable = whyUnusable;
    this.permits = permits;
    this.callTimeout = callTimeout;
    this.closing = closing;
  }

  /**
   * The BMC of node {@code id}; when the spec names no power interface, or one without a driver,
   * every call fails with the reason.
   */
  static NodeBmc of(
      PowerDriverRegistry drivers,
      String id,
      NodeSpec spec,
      Semaphore permits,
      Duration callTimeout,
      BooleanSupplier closing) {
    if (spec.powerInterface() == null) {
      String why = "the node has no powerInterface";
      return new NodeBmc(
          null,
          null,
          new TerminalPowerException(PowerException.Reason.INVALID_CONFIG, why),
          why,
          permits,
          callTimeout,
          closing);
    }
    try {
      PowerDriver driver = drivers.driver(spec.powerInterface().json());
      return new NodeBmc(
          driver, BmcEndpoints.of(id, spec), null, null, permits, callTimeout, closing);
    } catch (PowerException e) {
      return new NodeBmc(null, null, e, failure(e), permits, callTimeout, closing);
    }
  }

  /**
   * Reads the power state; a failure is a reading that says why.
   *
   * @throws InterruptedException when interrupted, or when the controller is closing
   */
  PowerReading read() throws InterruptedException {
    if (unusable != null) {
      return PowerReading.failed(whyUnusable);
    }
    acquireToRead();
    try {
      return PowerReading.of(driver.bmcPowerState(endpoint, deadline()));
    } catch (PowerException e) {
      return PowerReading.failed(failure(e));
    } finally {
      permits.release();
    }
  }

  /** Reads the power draw; empty when the BMC does not report it. */
  OptionalDouble watts() throws PowerException, InterruptedException {
    usable();
    acquireToRead();
    try {
      return driver.powerDraw(endpoint, deadline());
    } finally {
      permits.release();
    }
  }

  /** Reads what the BMC knows about the hardware ({@link PowerDriver#inspect}). */
  HardwareInfo inspect() throws PowerException, InterruptedException {
    usable();
    acquireToRead();
    try {
      return driver.inspect(endpoint, deadline());
    } finally {
      permits.release();
    }
  }

  /**
   * Carries out the power action {@code action} through {@link PowerDriver#execute} and answers
   * what was sent (for a power-on with PXE, the boot override's requests, then the power-on's). The
   * one place where the model's {@link io.bamel.inventory.model.PowerAction} becomes the drivers'
   * {@link PowerCommand}.
   */
  PowerResult act(Action action) throws PowerException, InterruptedException {
    usable();
    permits.acquire();
    try {
      Deadline deadline = deadline();
      return switch (action.power()) {
        case POWER_ON -> {
          if (!action.pxe()) {
            yield driver.execute(PowerCommand.on(), endpoint, deadline);
          }
          PowerResult boot =
              driver.execute(PowerCommand.boot(BootOverride.pxeOnce()), endpoint, deadline);
          yield combine(boot, driver.execute(PowerCommand.on(), endpoint, deadline));
        }
        case POWER_OFF ->
            driver.execute(PowerCommand.off(PowerOffMode.GRACEFUL), endpoint, deadline);
        case POWER_OFF_FORCE ->
            driver.execute(PowerCommand.off(PowerOffMode.FORCE), endpoint, deadline);
        case POWER_CYCLE -> driver.execute(PowerCommand.cycle(), endpoint, deadline);
        case null -> throw new IllegalArgumentException("not a power action: " + action.kind());
      };
    } finally {
      permits.release();
    }
  }

  /** {@code first}'s requests and notes, then {@code then}'s; unreported when neither reports. */
  static PowerResult combine(PowerResult first, PowerResult then) {
    if (!first.reported() && !then.reported()) {
      return PowerResult.unreported();
    }
    PowerResult.Builder b = new PowerResult.Builder();
    for (PowerResult r : new PowerResult[] {first, then}) {
      r.sent().forEach(b::sent);
      r.notes().forEach(b::note);
      if (r.forced()) {
        b.forced();
      }
    }
    return b.build();
  }

  /** How a failed call is written in a status: the reason, then the driver's message. */
  static String failure(PowerException e) {
    // the message may quote the BMC: escaped where it is built, so it logs and stores as one line
    return e.reason() + ": " + UntrustedText.escape(e.getMessage());
  }

  /** Takes a permit for a read, unless the controller is closing (before or while waiting). */
  private void acquireToRead() throws InterruptedException {
    if (closing.getAsBoolean()) {
      throw new InterruptedException("closing: no BMC read begins");
    }
    permits.acquire();
    if (closing.getAsBoolean()) {
      permits.release();
      throw new InterruptedException("closing: no BMC read begins");
    }
  }

  private void usable() throws PowerException {
    if (unusable != null) {
      throw unusable;
    }
  }

  private Deadline deadline() {
    return Deadline.in(callTimeout);
  }
}
