package io.bamel.node;

import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.LastPowerAction;
import java.util.List;
import java.util.Map;

/**
 * The one thing the controller does for a node after a decision. Power actions are recorded in the
 * status before the BMC is called (write-ahead); Kubernetes actions are idempotent and are done
 * before the status that records their effect is written.
 *
 * @param kind what to do
 * @param pxe for {@link Kind#POWER_ON}: set a one-time PXE boot override first
 * @param labels for {@link Kind#ADMIT} and {@link Kind#LABEL}: the node labels to set
 * @param evict for {@link Kind#DRAIN}: the pods to evict (after cordoning)
 */
public record Action(Kind kind, boolean pxe, Map<String, String> labels, List<PodRef> evict) {

  /** Kinds of action. */
  public enum Kind {
    /** Nothing. */
    NONE("none"),
    /** Switch on at the BMC. */
    POWER_ON("power-on"),
    /** Switch off gracefully (the driver forces after its graceful timeout). */
    POWER_OFF("power-off"),
    /** Switch off by force. */
    POWER_OFF_FORCE("power-off-force"),
    /** Power-cycle at the BMC. */
    POWER_CYCLE("power-cycle"),
    /** Cordon the Kubernetes node and evict the listed pods. */
    DRAIN("drain"),
    /** Label the Kubernetes node and uncordon it: it joined. */
    ADMIT("admit"),
    /** Label the Kubernetes node (a running node adopted). */
    LABEL("label"),
    /** Uncordon the Kubernetes node (a drain called off). */
    UNCORDON("uncordon");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    /** The status record of this action (the write-ahead); only power actions have one. */
    public LastPowerAction lastPowerAction() {
      return switch (this) {
        case POWER_ON -> LastPowerAction.POWER_ON;
        case POWER_OFF -> LastPowerAction.POWER_OFF;
        case POWER_OFF_FORCE -> LastPowerAction.POWER_OFF_FORCE;
        case POWER_CYCLE -> LastPowerAction.POWER_CYCLE;
        default -> throw new IllegalStateException(text + " is not a power action");
      };
    }

    /** The name used in events and {@code lastPowerAction}. */
    public String text() {
      return text;
    }

    /** Whether this is a BMC call (and so written ahead). */
    public boolean power() {
      return this == POWER_ON
          || this == POWER_OFF
          || this == POWER_OFF_FORCE
          || this == POWER_CYCLE;
    }
  }

  /** Copies the collections. */
  public Action {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    evict = evict == null ? List.of() : List.copyOf(evict);
  }

  /** Nothing to do. */
  public static final Action NONE = new Action(Kind.NONE, false, Map.of(), List.of());

  /** A power action. */
  public static Action power(Kind kind, boolean pxe) {
    return new Action(kind, pxe, Map.of(), List.of());
  }

  /** Cordon and evict {@code pods}. */
  public static Action drain(List<PodRef> pods) {
    return new Action(Kind.DRAIN, false, Map.of(), pods);
  }

  /** Label (and, for {@link Kind#ADMIT}, uncordon). */
  public static Action label(Kind kind, Map<String, String> labels) {
    return new Action(kind, false, labels, List.of());
  }

  /** Uncordon. */
  public static Action uncordon() {
    return new Action(Kind.UNCORDON, false, Map.of(), List.of());
  }
}
