package io.bamel.pool.simulate;

import java.util.List;

/**
 * A rule for switching servers, plugged into the {@link Simulator}: each step it sees the simulated
 * cluster ({@link ClusterState}: every server's state and pods, the pods waiting) and says which
 * servers to switch on and which off. The simulator applies what it may, as the pool controller
 * writes desired power: a server is switched on only from {@code off}, and off only from {@code
 * ready}; anything else is ignored. The node state machine then carries the switch out (a server
 * switched off is drained: its pods are evicted and wait again). An implementation may keep memory
 * between steps; one instance serves one run.
 */
public interface Autoscaler {

  /** The name in the results (fixed per rule: {@code bamel}, {@code cluster-autoscaler}...). */
  String name();

  /** Whether every server starts Ready (always-on); otherwise only those the first pods need. */
  default boolean allOnAtStart() {
    return false;
  }

  /**
   * The over-provisioning placeholders the cluster runs beside this autoscaler (none by default):
   * the documented way to give cluster-autoscaler and Karpenter headroom.
   */
  default Overprovisioning overprovisioning() {
    return Overprovisioning.NONE;
  }

  /** What to switch this step. */
  Decision decide(ClusterState state);

  /**
   * The servers to switch, by id.
   *
   * @param powerOn servers to switch on
   * @param powerOff servers to switch off
   */
  record Decision(List<String> powerOn, List<String> powerOff) {

    /** Nothing. */
    public static final Decision NONE = new Decision(List.of(), List.of());

    /** Copies the lists. */
    public Decision {
      powerOn = List.copyOf(powerOn);
      powerOff = List.copyOf(powerOff);
    }
  }
}
