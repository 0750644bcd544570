package io.bamel.node;

import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import java.util.List;
import java.util.Map;

/**
 * What Kubernetes showed about a node when it was reconciled.
 *
 * @param mode whether there is integration, whether it answered, whether the node exists
 * @param node the Kubernetes node when {@link Mode#PRESENT}, else null
 * @param pods the pods bound to it (every kind; the state machine picks the workloads), when
 *     fetched; else empty
 * @param blocked why earlier evictions of pods on it were refused, by pod ({@code ns/name})
 * @param identity whether the Kubernetes node is provably this machine ({@link KubeIdentity}), when
 *     one was found; else null
 * @param cached whether {@code pods} come from the watched cache, which may lag the API server: an
 *     empty list is then a hint, not proof that no workload is left ({@link #withServerPods})
 */
public record KubeView(
    Mode mode,
    KubeNode node,
    List<KubePod> pods,
    Map<String, String> blocked,
    KubeIdentity.Verdict identity,
    boolean cached) {

  /** How far Kubernetes could be seen. */
  public enum Mode {
    /** No Kubernetes integration is configured. */
    DISABLED,
    /** Integration is configured but the API server did not answer. */
    UNREACHABLE,
    /**
     * The API server answered (through the watched cache): there is no such node, and it is the
     * node the machine was last seen as, or the machine was never seen ({@link
     * KubeIdentity#absent}).
     */
    ABSENT,
    /** The API server answered with the node. */
    PRESENT,
    /**
     * The API server answered with a node of that name, but nothing proves it is this machine
     * ({@link KubeIdentity}): it is not looked at, as if it could not be seen.
     */
    REFUSED
  }

  /** Copies the collections. */
  public KubeView {
    pods = pods == null ? List.of() : List.copyOf(pods);
    blocked = blocked == null ? Map.of() : Map.copyOf(blocked);
  }

  /** No Kubernetes integration. */
  public static final KubeView DISABLED =
      new KubeView(Mode.DISABLED, null, List.of(), Map.of(), null, false);

  /** The API server did not answer. */
  public static final KubeView UNREACHABLE =
      new KubeView(Mode.UNREACHABLE, null, List.of(), Map.of(), null, false);

  /** The API server has no such node. */
  public static final KubeView ABSENT =
      new KubeView(Mode.ABSENT, null, List.of(), Map.of(), null, false);

  /**
   * The node, with the pods on it as the cluster has them (no cache between: tests and
   * simulations); its identity not checked.
   */
  public static KubeView present(KubeNode node, List<KubePod> pods, Map<String, String> blocked) {
    return new KubeView(Mode.PRESENT, node, pods, blocked, null, false);
  }

  /**
   * The node, proven to be this machine by {@code identity}, with the pods on it as the watched
   * cache shows them ({@link #cached()}).
   */
  public static KubeView proven(
      KubeNode node,
      List<KubePod> pods,
      Map<String, String> blocked,
      KubeIdentity.Verdict identity) {
    return new KubeView(Mode.PRESENT, node, pods, blocked, identity, true);
  }

  /**
   * A node of the expected name that is not provably this machine: neither it nor its pods are
   * shown, only why it was refused.
   */
  public static KubeView refused(KubeIdentity.Verdict identity) {
    return new KubeView(Mode.REFUSED, null, List.of(), Map.of(), identity, false);
  }

  /**
   * This view with {@code pods} as the API server itself listed them ({@link
   * io.bamel.inventory.cluster.Cluster#serverPodsOn}) in place of the cache's: no longer {@link
   * #cached()}.
   */
  public KubeView withServerPods(List<KubePod> pods) {
    return new KubeView(mode, node, pods, blocked, identity, false);
  }

  /** The workload pods on the node (not finished, not DaemonSet, not mirror pods). */
  public List<KubePod> workloads() {
    return pods.stream().filter(KubePod::workload).toList();
  }

  /** What the state machine concludes from this view. */
  public KubeVerdict verdict() {
    return KubeVerdict.of(this);
  }
}
