package io.bamel.node;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.model.UntrustedText;

/**
 * Whether a Kubernetes node is provably the machine of an inventory node, from what the machine
 * itself reports. Pure: the node controller asks it before every cordon, drain, label or uncordon,
 * and refuses unless it answers {@link Outcome#PROVEN}.
 *
 * <p>Two proofs, each reported by the machine's kubelet:
 *
 * <ul>
 *   <li>{@code spec.providerID} in bamel's scheme, {@code bamel://<node-id>} (the kubelet's {@code
 *       --provider-id}): equal to this node's is a match, another {@code bamel://} id a mismatch; a
 *       provider ID of another scheme ({@code aws://...}) says nothing.
 *   <li>{@code status.nodeInfo.systemUUID} against the UUID the BMC reported at inspection ({@code
 *       status.hardware.systemUuid}), by {@link SystemUuid#same} (case and the SMBIOS byte-order
 *       variant ignored); a missing or placeholder UUID on either side says nothing.
 * </ul>
 *
 * <p>Any mismatch refuses, even when the other proof matches; at least one match and no mismatch
 * proves; nothing said either way is {@link Outcome#UNKNOWN}, which refuses too.
 */
public final class KubeIdentity {

  /** The provider ID scheme bamel documents: {@code bamel://<node-id>}. */
  static final String PROVIDER_SCHEME = "bamel://";

  /** What the check concluded. */
  public enum Outcome {
    /** The Kubernetes node is this machine. */
    PROVEN,
    /** The Kubernetes node reports an identity that is not this machine's. */
    MISMATCH,
    /** Nothing proves it either way (no UUID stored or reported, no bamel provider ID). */
    UNKNOWN;

    /** The {@code reason} label of {@code bamel_kubernetes_identity_refusals_total}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The conclusion and why.
   *
   * @param outcome proven, mismatch or unknown
   * @param detail a sentence naming what was compared (kept short, for a condition message)
   */
  public record Verdict(Outcome outcome, String detail) {

    /** Whether bamel may act on the Kubernetes node. */
    public boolean proven() {
      return outcome == Outcome.PROVEN;
    }
  }

  private KubeIdentity() {}

  /**
   * Whether Kubernetes node {@code node} is inventory node {@code nodeId}, whose BMC reported
   * system UUID {@code storedUuid} at inspection (null: not inspected, or the BMC did not say).
   */
  static Verdict check(String nodeId, String storedUuid, KubeNode node) {
    String name = node.name();
    Outcome byProvider = byProviderId(nodeId, node.providerId());
    Outcome byUuid = byUuid(storedUuid, node.systemUuid());
    if (byProvider == Outcome.MISMATCH) {
      return new Verdict(
          Outcome.MISMATCH,
          "Kubernetes node "
              + name
              + " has providerID "
              + UntrustedText.escape(node.providerId())
              + ", not "
              + PROVIDER_SCHEME
              + nodeId);
    }
    if (byUuid == Outcome.MISMATCH) {
      return new Verdict(
          Outcome.MISMATCH,
          "Kubernetes node "
              + name
              + " reports systemUUID "
              + UntrustedText.escape(node.systemUuid())
              + ", the BMC "
              + storedUuid);
    }
    if (byProvider == Outcome.PROVEN) {
      return new Verdict(Outcome.PROVEN, "providerID " + UntrustedText.escape(node.providerId()));
    }
    if (byUuid == Outcome.PROVEN) {
      return new Verdict(Outcome.PROVEN, "systemUUID " + SystemUuid.canonical(storedUuid));
    }
    return new Verdict(
        Outcome.UNKNOWN,
        "nothing proves that Kubernetes node "
            + name
            + " is this machine: "
            + (SystemUuid.canonical(storedUuid) == null
                ? "no system UUID stored (inspect the node)"
                : "the Kubernetes node reports no usable systemUUID")
            + " and no providerID "
            + PROVIDER_SCHEME
            + nodeId);
  }

  /**
   * What the absence of Kubernetes node {@code name} from the watched cache says, for a machine
   * last seen in Kubernetes as node {@code lastSeen} ({@code status.kubernetesNode}; null: never
   * seen): null when it says the machine is not (or no longer) in Kubernetes, which is when {@code
   * name} is the node it was last seen as, or it was never seen; else {@link Outcome#UNKNOWN}.
   *
   * <p>The second case is an inventory that now names another Kubernetes node than the one the
   * machine was seen as (a {@code kubernetesNodeName} or {@code name} changed), and that one is not
   * in the cache. A cache lags the API server (the node may have just registered), so the absence
   * neither proves the named node is this machine nor says the machine's own node, and its
   * workloads, are gone: nothing may be cordoned, drained or switched off on it.
   */
  static Verdict absent(String name, String lastSeen) {
    if (lastSeen == null || lastSeen.equals(name)) {
      return null;
    }
    return new Verdict(
        Outcome.UNKNOWN,
        "Kubernetes node "
            + UntrustedText.escape(name)
            + " is not seen, and this machine was last seen as Kubernetes node "
            + UntrustedText.escape(lastSeen)
            + ": nothing proves where its workloads are");
  }

  private static Outcome byProviderId(String nodeId, String providerId) {
    if (providerId == null || !providerId.startsWith(PROVIDER_SCHEME)) {
      return Outcome.UNKNOWN;
    }
    return providerId.equals(PROVIDER_SCHEME + nodeId) ? Outcome.PROVEN : Outcome.MISMATCH;
  }

  private static Outcome byUuid(String stored, String reported) {
    if (SystemUuid.canonical(stored) == null || SystemUuid.canonical(reported) == null) {
      return Outcome.UNKNOWN;
    }
    return SystemUuid.same(stored, reported) ? Outcome.PROVEN : Outcome.MISMATCH;
  }
}
