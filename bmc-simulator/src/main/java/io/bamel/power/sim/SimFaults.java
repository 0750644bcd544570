package io.bamel.power.sim;

import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Faults to inject into one simulated system's answers. Thread-safe; counted faults are consumed
 * one per request they hit.
 */
public final class SimFaults {

  private final AtomicReference<Duration> latency = new AtomicReference<>(Duration.ZERO);
  private final AtomicInteger failures = new AtomicInteger();
  private volatile int failureStatus = 503;
  private final AtomicInteger busyActions = new AtomicInteger();
  private volatile int busyStatus = 409;
  private final AtomicInteger etagChanges = new AtomicInteger();
  private final AtomicInteger drops = new AtomicInteger();
  private final AtomicInteger dropsAfterAction = new AtomicInteger();
  private final AtomicInteger staleReads = new AtomicInteger();
  private volatile BmcPowerState staleState = BmcPowerState.OFF;

  /** Delays every answer by {@code delay}. */
  public SimFaults latency(Duration delay) {
    latency.set(delay);
    return this;
  }

  /** The current added latency. */
  public Duration latency() {
    return latency.get();
  }

  /** Answers the next {@code count} requests with HTTP {@code status} (a 5xx, say). */
  public SimFaults failNext(int count, int status) {
    failureStatus = status;
    failures.set(count);
    return this;
  }

  /** Answers the next {@code count} actions (reset, boot override) with 409 "busy". */
  public SimFaults busyNext(int count) {
    return busyNext(count, 409);
  }

  /**
   * Answers the next {@code count} actions (reset, boot override) with HTTP {@code status}: 409
   * "resource in use" or 503 "service unavailable", the two answers of a busy BMC.
   */
  public SimFaults busyNext(int count, int status) {
    if (status != 409 && status != 503) {
      throw new IllegalArgumentException("409 or 503, not " + status);
    }
    busyStatus = status;
    busyActions.set(count);
    return this;
  }

  /**
   * Lets another client change the System just before each of the next {@code count} boot override
   * PATCHes: the ETag moves on, so a PATCH carrying the one read before gets 412.
   */
  public SimFaults etagChangeNext(int count) {
    etagChanges.set(count);
    return this;
  }

  /** Closes the connection without an answer for the next {@code count} requests. */
  public SimFaults dropNext(int count) {
    drops.set(count);
    return this;
  }

  /**
   * Carries out each of the next {@code count} actions (reset, boot override) and then closes the
   * connection without answering: the client cannot tell whether its request took effect.
   */
  public SimFaults dropAfterNextActions(int count) {
    dropsAfterAction.set(count);
    return this;
  }

  /**
   * Reports {@code reported} as the power state in the next {@code count} reads of the system, as a
   * BMC with a stale cache does.
   */
  public SimFaults staleStateNext(int count, BmcPowerState reported) {
    staleState = reported;
    staleReads.set(count);
    return this;
  }

  /** Removes every fault. */
  public void clear() {
    latency.set(Duration.ZERO);
    failures.set(0);
    busyActions.set(0);
    etagChanges.set(0);
    drops.set(0);
    dropsAfterAction.set(0);
    staleReads.set(0);
  }

  /** The stale state to report in this read, or {@code null}. */
  BmcPowerState takeStale() {
    return take(staleReads) ? staleState : null;
  }

  boolean takeDrop() {
    return take(drops);
  }

  boolean takeDropAfterAction() {
    return take(dropsAfterAction);
  }

  /** The status to fail this request with, or 0. */
  int takeFailure() {
    return take(failures) ? failureStatus : 0;
  }

  /** The status to answer this action with as busy (409 or 503), or 0. */
  int takeBusy() {
    return take(busyActions) ? busyStatus : 0;
  }

  boolean takeEtagChange() {
    return take(etagChanges);
  }

  private static boolean take(AtomicInteger counter) {
    return counter.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
  }
}
