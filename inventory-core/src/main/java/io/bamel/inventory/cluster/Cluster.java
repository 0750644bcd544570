package io.bamel.inventory.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The Kubernetes cluster as both controllers see it: nodes, pods, and the few writes they make
 * (cordon, uncordon, label, evict). Values are plain records of this package; no client library
 * type leaks out.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>Thread-safe. Reads may come from a watched cache (informers, see {@link #synced()}); writes
 *       are bounded requests to the API server (or no-ops without Kubernetes integration, see
 *       {@link #enabled()}).
 *   <li>When the API server cannot be reached, answers 5xx, or times out, a call throws {@link
 *       ClusterUnavailableException}; callers treat that as "unknown", never as "absent". Other
 *       refusals (403, 422) throw {@link ClusterException}.
 *   <li>Writes are idempotent: cordoning a cordoned node, or adding a label it already has,
 *       succeeds without a change.
 *   <li>Eviction goes through the Eviction API, so PodDisruptionBudgets are respected; a refusal is
 *       an {@link EvictionResult}, not an exception.
 * </ul>
 */
public interface Cluster extends AutoCloseable {

  /** The annotation, on a pod or a node, that forbids bamel to disrupt it. */
  String DO_NOT_DISRUPT = "bamel.io/do-not-disrupt";

  /** The node label naming a node's pool. */
  String POOL_LABEL = "bamel.io/pool";

  /** The annotation the kubelet puts on mirror (static) pods. */
  String MIRROR_POD = "kubernetes.io/config.mirror";

  /**
   * Whether Kubernetes integration is configured. When false ({@link DisconnectedCluster}) the
   * lists are empty, writes do nothing, and {@link #reachable()} is false.
   */
  boolean enabled();

  /** Whether the API server answers now (a cheap request); false without integration. */
  boolean reachable();

  /**
   * Whether the reads reflect the cluster: for a cache fed by watches, its first full list has
   * arrived and the API server answered the latest request. While false, reads throw {@link
   * ClusterUnavailableException} and callers treat the cluster as unknown. By default: {@link
   * #enabled()}.
   */
  default boolean synced() {
    return enabled();
  }

  /**
   * Registers {@code listener}, called (on a client thread; it must return quickly) when a pod
   * becomes unschedulable ({@link KubePod#unschedulable()}): appears so, or turns so. Without a
   * watch nothing is ever called (the default).
   */
  default void onPendingPod(Consumer<KubePod> listener) {}

  /**
   * Posts {@code notice} as a Kubernetes Event on its node, rate-limited by the implementation.
   * Best effort: a failure is logged, never thrown, except {@link ClusterFencedException} from a
   * {@link FencedCluster}. By default nothing is posted.
   */
  default void notice(NodeNotice notice) {}

  /**
   * Every node.
   *
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  List<KubeNode> nodes();

  /**
   * The node named {@code name}; empty when there is none.
   *
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  Optional<KubeNode> node(String name);

  /**
   * Every pod of every namespace.
   *
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  List<KubePod> pods();

  /**
   * What the live pods of each node add up to, and the pods waiting for a node ({@link
   * PodSummary}). By default computed from {@link #pods()}; a watched cache keeps it up to date as
   * events arrive, so reading it costs the number of nodes, not of pods.
   *
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  default PodSummary podSummary() {
    return PodSummary.of(pods());
  }

  /**
   * The pods bound to node {@code nodeName}, in every phase.
   *
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  List<KubePod> podsOn(String nodeName);

  /**
   * The pods bound to node {@code nodeName}, in every phase, as the API server lists them now: a
   * request ({@code fieldSelector=spec.nodeName=<name>}, as {@code kubectl drain} lists), not the
   * watched cache, which may lag the server (a pod created just before the watch was cut is missing
   * from {@link #podsOn} until the cache lists again). For the few decisions that must not rest on
   * a cache, such as declaring a drain done; it costs one request per call, so callers use it only
   * at such points, never on every look at every node. It works whether or not the cache has
   * synced. By default {@link #podsOn}: an implementation whose reads are not a cache that lags has
   * nothing else to answer.
   *
   * @throws ClusterUnavailableException when the API server cannot be reached or does not answer;
   *     the caller then knows nothing about the node's pods (never "none")
   * @throws ClusterException when the API server refuses the list (403, say)
   */
  default List<KubePod> serverPodsOn(String nodeName) {
    return podsOn(nodeName);
  }

  /**
   * Marks the node unschedulable.
   *
   * @return false when there is no such node
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  boolean cordon(String nodeName);

  /**
   * Marks the node schedulable.
   *
   * @return false when there is no such node
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  boolean uncordon(String nodeName);

  /**
   * Adds (or overwrites) {@code labels} on the node; other labels are kept.
   *
   * @return false when there is no such node
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  boolean label(String nodeName, Map<String, String> labels);

  /**
   * Evicts the pod through the Eviction API.
   *
   * @return what happened: evicted, already gone, or refused (a PodDisruptionBudget, say)
   * @throws ClusterUnavailableException when the API server cannot be reached
   */
  EvictionResult evict(PodRef pod);

  /** Releases the client. Never throws. */
  @Override
  void close();
}
