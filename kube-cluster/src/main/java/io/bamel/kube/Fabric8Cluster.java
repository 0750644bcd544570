package io.bamel.kube;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.cluster.ClusterUnavailableException;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeNotice;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.cluster.PodSummary;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Cluster} port over a fabric8 {@link KubernetesClient} (with the JDK HTTP client).
 *
 * <p>Reads come from two shared informers, one for nodes and one for pods of every namespace, each
 * listing (in pages of 500) then watching, relisting when the watch ends with 410 Gone, and
 * resyncing every {@link Options#resync()}. Their stores keep only the port's records ({@link
 * MappedStore}), pods indexed by node; what the pods of each node add up to, and the pods waiting
 * for a node, are kept up to date as the pod informer's changes arrive ({@link PodTotals}, exact
 * through relists), so {@link #podSummary()} costs the number of nodes, not of pods. Reads throw
 * {@link ClusterUnavailableException} until both informers have synced, and while the API server's
 * latest answer (to a write or to the background probe) was a failure ({@link #synced()}): a cache
 * whose watch may be cut is not read as the truth. Between two watches (the server ends each after
 * a while) the cache stays readable. The one read that is a request is {@link #serverPodsOn}: the
 * pods of one node as the API server lists them, for a drain's last check.
 *
 * <p>Writes (cordon, uncordon, label, evict, events) and the reachability probe are requests,
 * guarded by a {@link CircuitBreaker}: after {@link Options#breakerThreshold()} consecutive
 * failures (no answer, timeout, 5xx) calls fail at once with "Kubernetes unreachable" for {@link
 * Options#breakerOpenFor()}, then one probe decides. A background probe every {@link
 * Options#probeInterval()} keeps the verdict current. Label and cordon changes are computed inside
 * fabric8's {@code edit}, from the object as the server has it. Events are {@code
 * events.k8s.io/v1}, rate-limited per node and reason ({@link EventThrottle}). Failures map to
 * {@link ClusterUnavailableException} or {@link ClusterException} (other refusals). Thread-safe.
 */
public final class Fabric8Cluster implements Cluster {

  private static final Logger log = LoggerFactory.getLogger(Fabric8Cluster.class);

  /** The {@code reportingController} of bamel's Kubernetes Events. */
  public static final String REPORTING_CONTROLLER = "bamel.io/node-controller";

  /** The namespace Node events are posted in (as the kubelet does). */
  static final String EVENT_NAMESPACE = "default";

  /**
   * Tuning.
   *
   * @param clock the clock of the event throttle (the breaker's open delay is Failsafe's, on {@code
   *     System.nanoTime()})
   * @param resync how often the informers resync their handlers
   * @param probeInterval how often the API server is probed in the background
   * @param breakerThreshold consecutive failures that open the breaker
   * @param breakerOpenFor how long it stays open before one probe
   * @param eventWindow at most one Event per node and reason per window
   * @param reportingInstance the {@code reportingInstance} of Events (this process)
   * @param callTimeout the longest a caller waits for one request, whatever the HTTP client does (a
   *     request still hung then is abandoned on its own thread and counts as a failure)
   */
  public record Options(
      Clock clock,
      Duration resync,
      Duration probeInterval,
      int breakerThreshold,
      Duration breakerOpenFor,
      Duration eventWindow,
      String reportingInstance,
      Duration callTimeout) {

    /**
     * The defaults: resync 10 min, probe every 1 s, open after 3 failures for 5 s, one Event per
     * node and reason per minute, calls abandoned after 5 s.
     */
    public static Options defaults() {
      return new Options(
          Clock.systemUTC(),
          Duration.ofMinutes(10),
          Duration.ofSeconds(1),
          3,
          Duration.ofSeconds(5),
          Duration.ofMinutes(1),
          instanceName(),
          Duration.ofSeconds(5));
    }

    /** These options with {@code clock}. */
    public Options withClock(Clock clock) {
      return new Options(
          clock,
          resync,
          probeInterval,
          breakerThreshold,
          breakerOpenFor,
          eventWindow,
          reportingInstance,
          callTimeout);
    }

    /** These options with {@code callTimeout}. */
    public Options withCallTimeout(Duration callTimeout) {
      return new Options(
          clock,
          resync,
          probeInterval,
          breakerThreshold,
          breakerOpenFor,
          eventWindow,
          reportingInstance,
          callTimeout);
    }

    private static String instanceName() {
      String host = System.getenv("HOSTNAME");
      return host == null || host.isBlank() ? "bamel" : host;
    }
  }

  private final KubernetesClient client;
  private final Options options;
  private final CircuitBreaker breaker;
  private final EventThrottle throttle;
  private final List<Consumer<KubePod>> pendingListeners = new CopyOnWriteArrayList<>();
  private final MappedStore<Node, KubeNode> nodeStore;
  private final MappedStore<Pod, KubePod> podStore;
  private final PodTotals podTotals = new PodTotals();
  private final SharedIndexInformer<Node> nodeInformer;
  private final SharedIndexInformer<Pod> podInformer;
  private final ScheduledExecutorService prober;
  private final ExecutorService calls =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "kube-call");
            t.setDaemon(true);
            return t;
          });

  /**
   * Connects with the usual fabric8 configuration (in-cluster service account, else {@code
   * KUBECONFIG} or {@code ~/.kube/config}, context {@code context} or the current one), over the
   * JDK HTTP client under bamel's outbound policy ({@link PolicyHttpClientFactory}: no redirect
   * followed, no proxy from the environment), with {@code timeout} to connect and per request, and
   * no retry: a write that fails is decided again by the controller's next pass instead of holding
   * a worker ({@code retries} is kept for the reads' lists: the informers page and retry on their
   * own).
   */
  public static Fabric8Cluster connect(String context, Duration timeout, int retries) {
    Config config =
        new ConfigBuilder(PolicyHttpClientFactory.withoutProxy(Config.autoConfigure(context)))
            .withRequestTimeout((int) timeout.toMillis())
            .withConnectionTimeout((int) timeout.toMillis())
            .withRequestRetryBackoffLimit(0)
            .build();
    return new Fabric8Cluster(
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new PolicyHttpClientFactory())
            .build(),
        Options.defaults().withCallTimeout(timeout));
  }

  /** A cluster over {@code client} with the default options; {@link #close()} closes it. */
  public Fabric8Cluster(KubernetesClient client) {
    this(client, Options.defaults());
  }

  /** A cluster over {@code client}; starts the informers and the probe. */
  public Fabric8Cluster(KubernetesClient client, Options options) {
    this.client = client;
    this.options = options;
    this.breaker = new CircuitBreaker(options.breakerThreshold(), options.breakerOpenFor());
    this.throttle = new EventThrottle(options.clock(), options.eventWindow());
    this.nodeStore = new MappedStore<>(Slim::node, Fabric8Mapping::node, null, null);
    this.podStore =
        new MappedStore<>(Slim::pod, Fabric8Mapping::pod, KubePod::nodeName, this::podChanged);
    long resync = options.resync().toMillis();
    this.nodeInformer =
        client.nodes().withLimit(500L).runnableInformer(resync).itemStore(nodeStore);
    this.podInformer =
        client.pods().inAnyNamespace().withLimit(500L).runnableInformer(resync).itemStore(podStore);
    // keep listing and watching whatever fails (fabric8 stops an informer whose list fails
    // unless told otherwise); the informer backs off between attempts
    nodeInformer.exceptionHandler((started, t) -> retry("nodes", t));
    podInformer.exceptionHandler((started, t) -> retry("pods", t));
    nodeInformer.start();
    podInformer.start();
    this.prober =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kube-probe");
              t.setDaemon(true);
              return t;
            });
    long every = options.probeInterval().toMillis();
    prober.scheduleWithFixedDelay(this::probe, 0, every, TimeUnit.MILLISECONDS);
  }

  private static boolean retry(String resource, Throwable t) {
    log.debug("the {} informer failed; retrying: {}", resource, t.toString());
    return true;
  }

  private void probe() {
    try {
      reachable();
    } catch (RuntimeException e) {
      log.debug("probing the API server failed", e);
    }
  }

  private void podChanged(String key, KubePod before, KubePod now) {
    // the totals first: a listener woken below reads them
    podTotals.changed(key, before, now);
    if (now != null && PodSummary.pending(now) && (before == null || !before.unschedulable())) {
      for (Consumer<KubePod> l : pendingListeners) {
        try {
          l.accept(now);
        } catch (RuntimeException e) {
          log.warn("a pending-pod listener failed", e);
        }
      }
    }
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public boolean reachable() {
    try {
      request("probing the API server", () -> client.nodes().withName("bamel-probe").get());
      return true;
    } catch (ClusterUnavailableException e) {
      return false;
    } catch (ClusterException e) {
      return true; // it answered
    }
  }

  @Override
  public boolean synced() {
    return breaker.fresh() && nodeInformer.hasSynced() && podInformer.hasSynced();
  }

  /** The breaker's state (tests, diagnostics). */
  public CircuitBreaker.State breakerState() {
    return breaker.state();
  }

  /** Whether the API server's latest answer was a success (tests, diagnostics). */
  boolean breakerStateFresh() {
    return breaker.fresh();
  }

  @Override
  public void onPendingPod(Consumer<KubePod> listener) {
    pendingListeners.add(listener);
  }

  private void requireSynced(String what) {
    if (!breaker.fresh()) {
      throw new ClusterUnavailableException(
          what
              + ": the API server did not answer the latest request ("
              + breaker.verdict()
              + "); the watched cache may be stale",
          null);
    }
    if (!nodeInformer.hasSynced() || !podInformer.hasSynced()) {
      throw new ClusterUnavailableException(what + ": the watches have not synced yet", null);
    }
  }

  @Override
  public List<KubeNode> nodes() {
    requireSynced("listing nodes");
    return nodeStore.records();
  }

  @Override
  public Optional<KubeNode> node(String name) {
    requireSynced("reading node " + name);
    return nodeStore.record(name);
  }

  @Override
  public List<KubePod> pods() {
    requireSynced("listing pods");
    return podStore.records();
  }

  @Override
  public PodSummary podSummary() {
    requireSynced("summing pods");
    return podTotals.summary();
  }

  @Override
  public List<KubePod> podsOn(String nodeName) {
    requireSynced("listing pods on " + nodeName);
    return podStore.indexed(nodeName);
  }

  /**
   * Lists the node's pods from the API server ({@code GET /api/v1/pods?fieldSelector=spec.nodeName=
   * <name>}, one request, no paging: a node holds at most a few hundred pods), through the breaker
   * and the call deadline like a write, and maps them as the informer maps its pods. It does not
   * need the informers to have synced. The list is a consistent read (no {@code resourceVersion},
   * as {@code kubectl drain} lists): an API server with consistent reads from cache (KEP-2340, on
   * by default since Kubernetes 1.31) answers it from its watch cache; an older one reads from
   * etcd.
   */
  @Override
  public List<KubePod> serverPodsOn(String nodeName) {
    return request(
        "listing pods on " + nodeName + " from the API server",
        () ->
            client
                .pods()
                .inAnyNamespace()
                .withField("spec.nodeName", nodeName)
                .list()
                .getItems()
                .stream()
                .map(Fabric8Mapping::pod)
                .toList());
  }

  @Override
  public boolean cordon(String nodeName) {
    return setUnschedulable(nodeName, true);
  }

  @Override
  public boolean uncordon(String nodeName) {
    return setUnschedulable(nodeName, false);
  }

  private boolean setUnschedulable(String nodeName, boolean unschedulable) {
    Optional<KubeNode> cached = cachedNode(nodeName);
    if (cached.isPresent() && cached.get().unschedulable() == unschedulable) {
      return true; // already so: no write
    }
    return request(
        (unschedulable ? "cordoning " : "uncordoning ") + nodeName,
        () -> {
          try {
            client
                .nodes()
                .withName(nodeName)
                .edit(
                    n ->
                        new NodeBuilder(n)
                            .editOrNewSpec()
                            .withUnschedulable(unschedulable ? Boolean.TRUE : null)
                            .endSpec()
                            .build());
            return true;
          } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
              return false;
            }
            throw e;
          }
        });
  }

  @Override
  public boolean label(String nodeName, Map<String, String> labels) {
    Optional<KubeNode> cached = cachedNode(nodeName);
    if (cached.isPresent() && cached.get().labels().entrySet().containsAll(labels.entrySet())) {
      return true; // already labelled: no write
    }
    return request(
        "labelling " + nodeName,
        () -> {
          try {
            client
                .nodes()
                .withName(nodeName)
                .edit(
                    n -> {
                      // computed from the node as the server has it now, not from a copy
                      Map<String, String> merged = new HashMap<>();
                      if (n.getMetadata().getLabels() != null) {
                        merged.putAll(n.getMetadata().getLabels());
                      }
                      merged.putAll(labels);
                      return new NodeBuilder(n)
                          .editMetadata()
                          .withLabels(merged)
                          .endMetadata()
                          .build();
                    });
            return true;
          } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
              return false;
            }
            throw e;
          }
        });
  }

  /** The cached node, when the cache can be trusted; empty otherwise. */
  private Optional<KubeNode> cachedNode(String nodeName) {
    return synced() ? nodeStore.record(nodeName) : Optional.empty();
  }

  @Override
  public EvictionResult evict(PodRef pod) {
    return request(
        "evicting " + pod,
        () -> {
          try {
            boolean evicted =
                client
                    .pods()
                    .inNamespace(pod.namespace())
                    .withName(pod.name())
                    .evict(Fabric8Mapping.eviction(pod));
            return evicted
                ? new EvictionResult(pod, EvictionResult.Status.EVICTED, "evicted")
                : new EvictionResult(
                    pod,
                    EvictionResult.Status.BLOCKED_BY_BUDGET,
                    "eviction refused (429): a PodDisruptionBudget allows no disruption now");
          } catch (KubernetesClientException e) {
            int code = e.getCode();
            if (code == 404) {
              return new EvictionResult(pod, EvictionResult.Status.GONE, "no such pod");
            }
            if (code == 429) {
              return new EvictionResult(pod, EvictionResult.Status.BLOCKED_BY_BUDGET, message(e));
            }
            if (unavailable(e)) {
              throw e;
            }
            return new EvictionResult(pod, EvictionResult.Status.REFUSED, code + ": " + message(e));
          }
        });
  }

  @Override
  public void notice(NodeNotice notice) {
    var admitted = throttle.admit(notice.nodeName(), notice.reason());
    if (admitted.isEmpty()) {
      log.debug("event {} on {} dropped (rate limit)", notice.reason(), notice.nodeName());
      return;
    }
    String uid =
        Optional.ofNullable(nodeStore.get(notice.nodeName()))
            .map(n -> n.getMetadata().getUid())
            .orElse(null);
    var event = KubeEvents.event(notice, uid, admitted.getAsInt(), options);
    try {
      request(
          "posting event " + notice.reason() + " on " + notice.nodeName(),
          () ->
              client.events().v1().events().inNamespace(EVENT_NAMESPACE).resource(event).create());
    } catch (ClusterException e) {
      log.info(
          "event {} on node {} not posted: {}", notice.reason(), notice.nodeName(), e.getMessage());
    }
  }

  @Override
  public void close() {
    prober.shutdownNow();
    // the informers and the HTTP client may wait for hung requests: close them without holding
    // the caller long
    Future<?> closing =
        calls.submit(
            () -> {
              nodeInformer.close();
              podInformer.close();
              client.close();
            });
    try {
      closing.get(1, TimeUnit.SECONDS);
    } catch (TimeoutException | ExecutionException e) {
      log.debug("closing the Kubernetes client did not finish at once", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    calls.shutdownNow();
  }

  /**
   * One request through the breaker: refused at once while it is open; a failure to answer counts
   * toward opening it, any answer closes it.
   */
  private <T> T request(String what, Supplier<T> request) {
    if (!breaker.allow()) {
      throw new ClusterUnavailableException(what + ": " + breaker.verdict(), null);
    }
    try {
      T result = withDeadline(what, request);
      breaker.success();
      return result;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 && what.startsWith("probing")) {
        breaker.success();
        return null;
      }
      if (unavailable(e)) {
        breaker.failure();
        throw new ClusterUnavailableException(what + ": " + message(e), e);
      }
      breaker.success();
      throw new ClusterException(what + ": " + message(e), e);
    } catch (RuntimeException e) {
      breaker.failure();
      throw new ClusterUnavailableException(what + ": " + e, e);
    }
  }

  /**
   * Runs {@code request} on a call thread and waits at most {@link Options#callTimeout()}; a
   * request not answered by then is cancelled and reported as a {@code KubernetesClientException}
   * without code (unavailable), so no worker waits longer than that for the API server.
   */
  private <T> T withDeadline(String what, Supplier<T> request) {
    Future<T> call;
    try {
      call = calls.submit(request::get);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      throw new KubernetesClientException(what + ": closed", e);
    }
    long ms = options.callTimeout().toMillis();
    try {
      return call.get(ms, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw new KubernetesClientException(
          "no answer within " + ms + " ms", new java.io.InterruptedIOException("timed out"));
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw new KubernetesClientException(
          "interrupted", new java.io.InterruptedIOException("interrupted"));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new KubernetesClientException(String.valueOf(e.getCause()), e.getCause());
    }
  }

  /** No HTTP answer (connection refused, timeout, interrupted) or a 5xx. */
  static boolean unavailable(KubernetesClientException e) {
    int code = e.getCode();
    if (code >= 500 || code == 0) {
      return true;
    }
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof InterruptedIOException) {
        return true;
      }
    }
    return false;
  }

  private static String message(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    return String.valueOf(e.getMessage());
  }
}
