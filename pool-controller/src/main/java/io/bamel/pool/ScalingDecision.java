package io.bamel.pool;

import java.time.Instant;
import java.util.List;

/**
 * What the scaling policy decided for one pool at one moment.
 *
 * @param direction up, down, or none
 * @param reason why (for {@code none}: what held it back), a short word and a sentence
 * @param powerOn nodes to switch on, in order of preference, each with why it was chosen
 * @param powerOff nodes to switch off, each with why
 * @param desiredNodes how many nodes the pool should have on after this decision
 * @param lowSince the start of the current low-utilization window (remember it for next time): null
 *     when utilization is not below the scale-down threshold or unknown, the decision time when it
 *     first is and after a scale-down, else the snapshot's
 * @param utilizationKnown whether utilization could be measured
 * @param utilizationReason why not, when it could not
 */
public record ScalingDecision(
    Direction direction,
    String reason,
    List<Choice> powerOn,
    List<Choice> powerOff,
    int desiredNodes,
    Instant lowSince,
    boolean utilizationKnown,
    String utilizationReason) {

  /** The direction of a decision. */
  public enum Direction {
    /** Switch nodes on. */
    UP,
    /** Switch nodes off. */
    DOWN,
    /** Change nothing. */
    NONE
  }

  /** A chosen node and why. */
  public record Choice(String node, String reason) {}

  /** Copies the lists. */
  public ScalingDecision {
    powerOn = List.copyOf(powerOn);
    powerOff = List.copyOf(powerOff);
  }

  /** The ids of the nodes to switch on. */
  public List<String> powerOnIds() {
    return powerOn.stream().map(Choice::node).toList();
  }

  /** The ids of the nodes to switch off. */
  public List<String> powerOffIds() {
    return powerOff.stream().map(Choice::node).toList();
  }
}
