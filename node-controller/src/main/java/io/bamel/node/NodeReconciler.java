package io.bamel.node;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.WriteFence;
import io.bamel.node.Decision.Requeue;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerState;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one node: reads it from etcd, observes the BMC and Kubernetes, asks the {@link
 * NodeStateMachine}, and carries out the decision.
 *
 * <p>Order of effects: a power action's status (and event) is written, fenced by leadership, before
 * the BMC is called; a Kubernetes action is done before the status recording it is written. A
 * failed BMC call is recorded as {@code error} with the reason.
 */
final class NodeReconciler {

  private static final Logger log = LoggerFactory.getLogger(NodeReconciler.class);

  /**
   * What a reconciliation came to.
   *
   * @param result the {@code result} label of {@code bamel_reconcile_total}
   * @param requeue when to look at the node again
   */
  record Reconciled(ReconcileResult result, Requeue requeue) {

    /** Nothing more to do until the next sync or spec change. */
    static Reconciled settled(ReconcileResult result) {
      return new Reconciled(result, Requeue.NEXT_SYNC);
    }
  }

  private final NodeControllerConfig config;
  private final InventoryCache cache;
  private final EtcdInventory store;
  private final PowerDriverRegistry drivers;
  private final Cluster cluster;
  private final LeaderElection election;
  private final NodeMetrics metrics;
  private final Clock clock;
  private final Semaphore bmcPermits;
  private final Map<String, Map<String, String>> blocked = new ConcurrentHashMap<>();
  private volatile boolean stopping;

  /** A reconciler of the controller built by {@code parts}, recording to {@code metrics}. */
  NodeReconciler(NodeController.Builder parts, NodeMetrics metrics) {
    this.config = parts.config;
    this.cache = parts.cache;
    this.store = parts.store;
    this.drivers = parts.drivers;
    this.cluster = parts.cluster;
    this.election = parts.election;
    this.metrics = metrics;
    this.clock = parts.clock;
    this.bmcPermits = new Semaphore(config.bmcConcurrency(), true);
  }

  Reconciled reconcile(String id, boolean sync) throws InterruptedException {
    WriteFence fence = election.fence().orElse(null);
    if (fence == null) {
      return Reconciled.settled(ReconcileResult.SKIPPED);
    }
    Optional<Node> found = store.getNode(id);
    if (found.isEmpty()) {
      forget(id);
      return Reconciled.settled(ReconcileResult.GONE);
    }
    Node node = found.get();
    NodeSpec spec = node.spec();
    PoolConfig pool =
        spec.pool() == null ? null : cache.pool(spec.pool()).map(Pool::config).orElse(null);
    NodeTimeouts timeouts = NodeStateMachine.timeouts(pool, config.timeouts());
    PowerReading power = readPower(id, spec);
    if (Thread.interrupted()) {
      // closing: a read cut short is not a BMC failure to record
      throw new InterruptedException("interrupted while reading the BMC");
    }
    KubeView kube = observeKube(id, spec, node.status());
    Decision d =
        NodeStateMachine.decide(
            new Observation(
                spec,
                node.specRevision(),
                node.status(),
                power,
                kube,
                timeouts,
                pool == null ? Map.of() : pool.labels(),
                clock.instant()));
    if (sync && power.state() == PowerState.ON && !spec.inMaintenance()) {
      readWatts(id, spec, fence);
    }
    return execute(node, d, fence, power);
  }

  /** The controller is closing: no power action begins from now on. */
  void stop() {
    stopping = true;
  }

  void forget(String id) {
    blocked.remove(id);
    metrics.forget(id);
  }

  // ---------------------------------------------------------------- observing

  private PowerReading readPower(String id, NodeSpec spec) throws InterruptedException {
    if (spec.powerInterface() == null) {
      return PowerReading.failed("the node has no powerInterface");
    }
    try {
      PowerDriver driver = drivers.driver(spec.powerInterface().json());
      BmcEndpoint endpoint = BmcEndpoints.of(id, spec);
      bmcPermits.acquire();
      try {
        return PowerReading.of(driver.powerState(endpoint, deadline()));
      } finally {
        bmcPermits.release();
      }
    } catch (PowerException e) {
      return PowerReading.failed(e.reason() + ": " + e.getMessage());
    }
  }

  private KubeView observeKube(String id, NodeSpec spec, NodeStatus status) {
    if (!cluster.enabled()) {
      return KubeView.DISABLED;
    }
    String name = kubeName(id, spec);
    try {
      Optional<KubeNode> node = cluster.node(name);
      if (node.isEmpty()) {
        return KubeView.ABSENT;
      }
      return KubeView.present(
          node.get(),
          NodeStateMachine.needsPods(spec, status) ? cluster.podsOn(name) : List.of(),
          blocked.getOrDefault(id, Map.of()));
    } catch (ClusterException e) {
      log.debug("Kubernetes unavailable for node {}: {}", id, e.getMessage());
      return KubeView.UNREACHABLE;
    }
  }

  private void readWatts(String id, NodeSpec spec, WriteFence fence) throws InterruptedException {
    try {
      PowerDriver driver = drivers.driver(spec.powerInterface().json());
      OptionalDouble watts;
      bmcPermits.acquire();
      try {
        watts = driver.powerDraw(BmcEndpoints.of(id, spec), deadline());
      } finally {
        bmcPermits.release();
      }
      if (watts.isPresent()) {
        metrics.watts(id, watts.getAsDouble());
        store.putReadings(
            id, new NodeReadings(clock.instant(), watts.getAsDouble(), null, null), fence);
      }
    } catch (PowerException e) {
      log.debug("no power reading for {}: {}", id, e.getMessage());
    }
  }

  // ---------------------------------------------------------------- acting

  private Reconciled execute(Node node, Decision d, WriteFence fence, PowerReading power)
      throws InterruptedException {
    String id = node.id();
    Action action = d.action();
    if (action.kind().power()) {
      if (stopping) {
        // closing: the next leader decides again
        return Reconciled.settled(ReconcileResult.STOPPED);
      }
      long revision = write(node, node.statusRevision(), d, fence);
      if (!election.isLeader()) {
        return Reconciled.settled(ReconcileResult.FENCED);
      }
      try {
        callBmc(node.id(), node.spec(), action);
        log.info(
            "power action node={} action={} interface={} result=ok",
            id,
            action.kind().text(),
            node.spec().powerInterface());
        return new Reconciled(ReconcileResult.OK, d.requeue());
      } catch (PowerException e) {
        if (Thread.interrupted()) {
          // closing: whether the call reached the BMC is unknown, so the written-ahead status
          // stays; the next leader checks the BMC before the step's timeout says otherwise
          log.info("node {}: {} interrupted by shutdown", id, action.kind().text());
          throw new InterruptedException("interrupted during " + action.kind().text());
        }
        Decision failed =
            NodeStateMachine.powerActionFailed(
                d, e.reason() + ": " + e.getMessage(), clock.instant());
        write(node, revision, failed, fence);
        log.info("node {}: {}", id, failed.next().lastError());
        return new Reconciled(ReconcileResult.ERROR, failed.requeue());
      }
    }
    if (action.kind() != Action.Kind.NONE) {
      try {
        doKube(id, kubeName(id, node.spec()), action);
      } catch (ClusterException e) {
        // nothing recorded: the action is idempotent and tried again soon
        log.debug("node {}: {} failed: {}", id, action.kind().text(), e.getMessage());
        return new Reconciled(ReconcileResult.REQUEUE, Requeue.POLL);
      }
    }
    if (d.event() != null || !d.next().equals(node.status())) {
      write(node, node.statusRevision(), d, fence);
    }
    ReconcileResult result =
        power.failed()
            ? ReconcileResult.ERROR
            : d.requeue() == Requeue.NEXT_SYNC ? ReconcileResult.OK : ReconcileResult.REQUEUE;
    return new Reconciled(result, d.requeue());
  }

  /**
   * Writes the decision's status and event (CAS on {@code revision}, fenced); counts the transition
   * and drift.
   */
  private long write(Node node, long revision, Decision d, WriteFence fence) {
    NodeEvent event = d.event();
    long written = store.putStatus(node.id(), revision, d.next(), event, fence);
    if (event != null && event.from() != event.to()) {
      metrics.transition(String.valueOf(event.from()), String.valueOf(event.to()));
      log.info(
          "node transition node={} from={} to={} action={} result={} reason=\"{}\"",
          node.id(),
          event.from(),
          event.to(),
          event.action(),
          event.result(),
          event.reason());
    }
    if (d.drift() != null) {
      metrics.drift(d.drift().direction());
    }
    return written;
  }

  private void callBmc(String id, NodeSpec spec, Action action)
      throws PowerException, InterruptedException {
    PowerDriver driver = drivers.driver(spec.powerInterface().json());
    BmcEndpoint endpoint = BmcEndpoints.of(id, spec);
    bmcPermits.acquire();
    try {
      Deadline deadline = deadline();
      switch (action.kind()) {
        case POWER_ON -> {
          if (action.pxe()) {
            driver.setBootDevice(endpoint, BootOverride.pxeOnce(), deadline);
          }
          driver.powerOn(endpoint, deadline);
        }
        case POWER_OFF -> driver.powerOff(endpoint, PowerOffMode.GRACEFUL, deadline);
        case POWER_OFF_FORCE -> driver.powerOff(endpoint, PowerOffMode.FORCE, deadline);
        case POWER_CYCLE -> driver.powerCycle(endpoint, deadline);
        default -> throw new IllegalArgumentException("not a power action: " + action.kind());
      }
    } finally {
      bmcPermits.release();
    }
  }

  private void doKube(String id, String name, Action action) {
    switch (action.kind()) {
      case DRAIN -> {
        cluster.cordon(name);
        Map<String, String> refused = new HashMap<>();
        for (PodRef pod : action.evict()) {
          EvictionResult result = cluster.evict(pod);
          if (!result.done()) {
            refused.put(pod.toString(), result.message());
          }
        }
        blocked.put(id, refused);
      }
      case ADMIT -> {
        cluster.label(name, action.labels());
        cluster.uncordon(name);
        blocked.remove(id);
      }
      case LABEL -> cluster.label(name, action.labels());
      case UNCORDON -> {
        cluster.uncordon(name);
        blocked.remove(id);
      }
      default -> throw new IllegalArgumentException("not a Kubernetes action: " + action.kind());
    }
  }

  /** The Kubernetes node name: {@code kubernetesNodeName}, else the node's name, else its id. */
  static String kubeName(String id, NodeSpec spec) {
    if (spec.kubernetesNodeName() != null && !spec.kubernetesNodeName().isBlank()) {
      return spec.kubernetesNodeName();
    }
    if (spec.name() != null && !spec.name().isBlank()) {
      return spec.name();
    }
    return id;
  }

  private Deadline deadline() {
    return Deadline.in(config.bmcCallTimeout()); // real time: BMC calls are real I/O
  }
}
