package io.bamel.pool.simulate;

import io.bamel.power.BmcPowerState;
import java.util.Map;

/**
 * The world of one simulated server, as the node controller observes it and acts on it: what its
 * BMC reports (off; powering on during POST; on; powering off during the OS shutdown), whether its
 * kubelet has registered a Kubernetes node and reports it Ready, and that node's cordon and labels.
 * It does what power and Kubernetes actions tell it, after the times it was given, and decides
 * nothing: every step of the node's lifecycle is the {@link SimNodeController}'s, that is the node
 * state machine's.
 *
 * <p>A power-on makes the BMC report {@code powering-on} for the POST time, then {@code on}; the
 * kubelet reports Ready at the boot time (POST, OS boot and join), and registers the node then. A
 * graceful power-off makes it report {@code powering-off} for the shutdown time, then {@code off};
 * a forced one {@code off} at once. The kubelet stops reporting Ready at a power-off or a power
 * cycle. A machine can be told to ignore power-ons (a fault for tests: the BMC accepts the call and
 * the server never turns on). Mutable, owned by one run.
 */
final class SimMachine {

  private static final long NEVER = Long.MAX_VALUE;

  private BmcPowerState power = BmcPowerState.OFF;
  private long settlesAt = NEVER;
  private BmcPowerState settlesTo;
  private long kubeletReadyAt = NEVER;
  private boolean kubeReady;
  private boolean registered;
  private boolean cordoned;
  private Map<String, String> labels = Map.of();
  private boolean ignoresPowerOn;

  /** Brings the world to {@code now}: a transition whose time has come ends, a kubelet joins. */
  void advance(long now) {
    if (now >= settlesAt) {
      power = settlesTo;
      settlesAt = NEVER;
      settlesTo = null;
    }
    kubeReady = power == BmcPowerState.ON && now >= kubeletReadyAt;
    if (kubeReady) {
      registered = true;
    }
  }

  /** What the BMC reports. */
  BmcPowerState power() {
    return power;
  }

  /** Whether the server has registered a Kubernetes node (once, at its first join). */
  boolean registered() {
    return registered;
  }

  /** Whether its Kubernetes node is Ready. */
  boolean kubeReady() {
    return kubeReady;
  }

  /** Whether its Kubernetes node is cordoned. */
  boolean cordoned() {
    return cordoned;
  }

  /** Its Kubernetes node's labels (those the node controller set). */
  Map<String, String> labels() {
    return labels;
  }

  // ------------------------------------------------------------ power actions, at the BMC

  /** A power-on at {@code now}: POST for {@code postSeconds}, Ready at {@code bootSeconds}. */
  void powerOn(long now, long postSeconds, long bootSeconds) {
    if (ignoresPowerOn
        || power == BmcPowerState.ON
        || (power == BmcPowerState.POWERING_ON && settlesTo == BmcPowerState.ON)) {
      return;
    }
    boot(now, postSeconds, bootSeconds);
  }

  /** A graceful power-off at {@code now}, taking {@code shutdownSeconds}. */
  void powerOff(long now, long shutdownSeconds) {
    if (power == BmcPowerState.OFF) {
      return;
    }
    stopKubelet();
    if (shutdownSeconds <= 0) {
      off();
      return;
    }
    if (power != BmcPowerState.POWERING_OFF) {
      power = BmcPowerState.POWERING_OFF;
      settlesAt = now + shutdownSeconds;
      settlesTo = BmcPowerState.OFF;
    }
  }

  /** A forced power-off at {@code now}: off at once. */
  void forceOff() {
    stopKubelet();
    off();
  }

  /** A power cycle at {@code now}: off and on again, POST and boot from now. */
  void powerCycle(long now, long postSeconds, long bootSeconds) {
    stopKubelet();
    if (ignoresPowerOn) {
      off();
      return;
    }
    boot(now, postSeconds, bootSeconds);
  }

  // ------------------------------------------------------------ Kubernetes actions

  /** Cordons the Kubernetes node. */
  void cordon() {
    cordoned = true;
  }

  /** Uncordons it. */
  void uncordon() {
    cordoned = false;
  }

  /** Sets {@code more} on its labels. */
  void label(Map<String, String> more) {
    Map<String, String> next = new java.util.TreeMap<>(labels);
    next.putAll(more);
    labels = Map.copyOf(next);
  }

  // ------------------------------------------------------------ set-up and faults

  /** From now on the BMC accepts power-ons and the server stays off (a fault, for tests). */
  void ignorePowerOn() {
    ignoresPowerOn = true;
  }

  /** Set up as running since long ago: on, its node registered, Ready, with {@code labels}. */
  void running(Map<String, String> nodeLabels) {
    power = BmcPowerState.ON;
    settlesAt = NEVER;
    settlesTo = null;
    kubeletReadyAt = Long.MIN_VALUE;
    kubeReady = true;
    registered = true;
    cordoned = false;
    labels = Map.copyOf(nodeLabels);
  }

  private void boot(long now, long postSeconds, long bootSeconds) {
    power = BmcPowerState.POWERING_ON;
    settlesAt = now + postSeconds;
    settlesTo = BmcPowerState.ON;
    kubeletReadyAt = now + bootSeconds;
    kubeReady = false;
  }

  private void off() {
    power = BmcPowerState.OFF;
    settlesAt = NEVER;
    settlesTo = null;
  }

  private void stopKubelet() {
    kubeletReadyAt = NEVER;
    kubeReady = false;
  }
}
