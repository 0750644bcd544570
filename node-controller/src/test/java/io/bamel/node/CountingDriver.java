package io.bamel.node;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.Deadline;
import io.bamel.power.InterceptingPowerDriver;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOperation;
import io.bamel.power.PowerResult;
import io.bamel.power.TransientPowerException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the calls the controller itself makes, per BMC address and operation, as they are passed
 * to the real driver, and remembers when the first of each was made. Unlike the simulator's counts
 * (which see only what a BMC accepted, after the Redfish driver skipped a power-on of a machine
 * already on), these count every decision to call.
 *
 * <p>It can also hold power actions (on, off, cycle) before they reach the real driver, as a
 * process that stops between the written-ahead status and the BMC call: {@link #hold} makes the
 * next ones wait (interruptibly, or ignoring interrupts like a call stuck in the kernel) until
 * {@link #release}. A held call that is interrupted fails, never reaches the BMC, and is not
 * counted as a call.
 */
final class CountingDriver extends InterceptingPowerDriver {

  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final Map<String, Instant> first = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger peak = new AtomicInteger();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger held = new AtomicInteger();
  private boolean holding;
  private boolean ignoreInterrupts;
  private int passBeforeHolding = -1; // >= 0: that many more actions pass, then holding starts

  CountingDriver(PowerDriver real) {
    super(real);
  }

  private static String key(String address, PowerOperation op) {
    return op + " " + address;
  }

  /** How many {@code op} calls for the BMC at {@code address} were passed to the real driver. */
  int calls(String address, PowerOperation op) {
    AtomicInteger n = calls.get(key(address, op));
    return n == null ? 0 : n.get();
  }

  /** How many calls of any kind were passed to the real driver. */
  int total() {
    return calls.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** When the first {@code op} call for {@code address} was passed on, or null. */
  Instant firstCall(String address, PowerOperation op) {
    return first.get(key(address, op));
  }

  /** Power actions that were held (whether they went on later or not). */
  int held() {
    return held.get();
  }

  /** Power actions waiting in the hold now. */
  int waiting() {
    return waiting.get();
  }

  /** The most calls that were under way in the real driver at once. */
  int peakInFlight() {
    return peak.get();
  }

  /** Calls under way in the real driver now. */
  int inFlight() {
    return inFlight.get();
  }

  /** Holds the next power actions; {@code ignoreInterrupts}: as a call that cannot be cut. */
  synchronized void hold(boolean ignoreInterrupts) {
    this.holding = true;
    this.ignoreInterrupts = ignoreInterrupts;
  }

  /**
   * Lets the next {@code passing} power actions through, then holds the ones after them as {@link
   * #hold} does (deterministic, unlike holding once some number of calls was observed).
   */
  synchronized void holdAfter(int passing, boolean ignoreInterrupts) {
    this.passBeforeHolding = passing;
    this.ignoreInterrupts = ignoreInterrupts;
  }

  /** Lets held and later power actions through. */
  synchronized void release() {
    holding = false;
    passBeforeHolding = -1;
    notifyAll();
  }

  private void gate(String what) throws PowerException {
    synchronized (this) {
      if (!holding && passBeforeHolding > 0) {
        passBeforeHolding--;
        return;
      }
      if (!holding && passBeforeHolding == 0) {
        holding = true;
        passBeforeHolding = -1;
      }
      if (!holding) {
        return;
      }
      held.incrementAndGet();
      waiting.incrementAndGet();
      try {
        while (holding) {
          try {
            wait();
          } catch (InterruptedException e) {
            if (!ignoreInterrupts) {
              Thread.currentThread().interrupt();
              throw new TransientPowerException(
                  PowerException.Reason.TIMEOUT, what + ": interrupted while held");
            }
          }
        }
      } finally {
        waiting.decrementAndGet();
      }
    }
  }

  /**
   * Counts the call and, for a power action, passes the hold first. An inspection is passed on as
   * it is: neither counted nor held.
   */
  @Override
  protected <T> T around(PowerOperation op, BmcEndpoint endpoint, Call<T> call)
      throws PowerException {
    switch (op) {
      case INSPECT -> {
        return call.run();
      }
      case ON, OFF, CYCLE -> gate("power " + op.label());
      default -> {}
    }
    String key = key(endpoint.address(), op);
    calls.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    first.putIfAbsent(key, Instant.now());
    peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    try {
      return call.run();
    } finally {
      inFlight.decrementAndGet();
    }
  }

  /**
   * Held and counted as its action; the real driver's report of what it sent is not passed on, so
   * the controller records the action as an unreported one ({@code requested}), as these tests
   * expect.
   */
  @Override
  public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    super.execute(command, endpoint, deadline);
    return PowerResult.unreported();
  }

  /** Waits until no call is under way in the real driver; false when {@code timeout} passed. */
  boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (inFlight.get() > 0) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(5);
    }
    return true;
  }

  @Override
  public void close() {
    release();
    delegate.close();
  }
}
