package io.bamel.node;

import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.model.PowerAction;
import java.util.List;
import java.util.Map;

/**
 * The one thing the controller does for a node after a decision. Power actions are recorded in the
 * status before the BMC is called (write-ahead); Kubernetes actions are idempotent and are done
 * before the status that records their effect is written.
 *
 * @param kind what to do
 * @param power for {@link Kind#POWER}: which power action (the model's type, also the write-ahead)
 * @param pxe for {@link PowerAction#POWER_ON}: set a one-time PXE boot override first
 * @param labels for {@link Kind#ADMIT} and {@link Kind#LABEL}: the node labels to set
 * @param evict for {@link Kind#DRAIN}: the pods to evict (after cordoning)
 */
public record Action(
    Kind kind, PowerAction power, boolean pxe, Map<String, String> labels, List<PodRef> evict) {

  /** Kinds of action. */
  public enum Kind {
    /** Nothing. */
    NONE("none"),
    /** A BMC call: {@link Action#power} says which; written ahead. */
    POWER("power"),
    /** Cordon the Kubernetes node and evict the listed pods. */
    DRAIN("drain"),
    /** Label the Kubernetes node and uncordon it: it joined. */
    ADMIT("admit"),
    /** Label the Kubernetes node (a running node adopted). */
    LABEL("label"),
    /** Uncordon the Kubernetes node (a drain called off). */
    UNCORDON("uncordon"),
    /**
     * Nothing sent: list the node's pods from the API server itself and decide again on that list
     * ({@link KubeView#withServerPods}). Asked when the watched cache shows no workload left,
     * before that is taken as the end of a drain; the decision carrying it is never stored.
     */
    LIST_PODS("list-pods");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    /** The name used in events and logs. */
    public String text() {
      return text;
    }
  }

  /** Copies the collections; a power action names its power action and only it does. */
  public Action {
    if ((kind == Kind.POWER) != (power != null)) {
      throw new IllegalArgumentException(kind + " with power action " + power);
    }
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    evict = evict == null ? List.of() : List.copyOf(evict);
  }

  /** Nothing to do. */
  public static final Action NONE = new Action(Kind.NONE, null, false, Map.of(), List.of());

  /** The power action {@code power}; {@code pxe} for a power-on that boots from the network. */
  public static Action power(PowerAction power, boolean pxe) {
    return new Action(Kind.POWER, power, pxe, Map.of(), List.of());
  }

  /** Cordon and evict {@code pods}. */
  public static Action drain(List<PodRef> pods) {
    return new Action(Kind.DRAIN, null, false, Map.of(), pods);
  }

  /** Label (and, for {@link Kind#ADMIT}, uncordon). */
  public static Action label(Kind kind, Map<String, String> labels) {
    return new Action(kind, null, false, labels, List.of());
  }

  /** List the node's pods from the API server and decide again ({@link Kind#LIST_PODS}). */
  public static final Action LIST_PODS =
      new Action(Kind.LIST_PODS, null, false, Map.of(), List.of());

  /** Uncordon. */
  public static Action uncordon() {
    return new Action(Kind.UNCORDON, null, false, Map.of(), List.of());
  }

  /** Whether this is a BMC call (and so written ahead). */
  public boolean isPower() {
    return kind == Kind.POWER;
  }

  /** What this action does: its power action for a BMC call, else its kind. */
  public Enum<?> verb() {
    return isPower() ? power : kind;
  }

  /** The name used in events, logs and {@code lastPowerAction}: {@code power-on}, {@code drain}. */
  public String text() {
    return isPower() ? power.json() : kind.text();
  }
}
