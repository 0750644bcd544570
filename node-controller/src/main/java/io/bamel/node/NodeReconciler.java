package io.bamel.node;

import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.cluster.ClusterFencedException;
import io.bamel.inventory.logging.FailureLog;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeCondition;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.WriteFence;
import io.bamel.node.Decision.Requeue;
import io.bamel.power.BmcPowerState;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerDriverRegistry;
import io.bamel.power.PowerException;
import io.bamel.power.PowerResult;
import io.bamel.power.TerminalPowerException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one node: takes it from the {@link InventoryCache} (the process's one read path),
 * observes the BMC and Kubernetes, asks the {@link NodeStateMachine}, and carries out the decision.
 * It decides nothing itself: it only performs the I/O a {@link Decision} asks for. A decision that
 * asks for the node's pods from the API server ({@link Action#LIST_PODS}: the watched cache shows
 * no workload left) is made again, in the same reconciliation, on that list; only the second is
 * carried out.
 *
 * <p>Order of effects: a power action's status (and event) is written, fenced by leadership or by
 * the replica's key ({@link Ownership}), and conditional on the status revision read, before the
 * BMC is called; a Kubernetes action is done before the status recording it is written. A failed
 * BMC call is recorded as {@link NodeStateMachine#powerActionFailed} says.
 *
 * <p>Reads: the node and its pool come from the cache, whose copy carries the status revision each
 * write is conditional on (compare-and-swap), so a settled node costs no etcd read at all. A copy
 * the cache has not yet brought up to date loses the compare-and-swap ({@link
 * io.bamel.inventory.store.ConflictException}) and the node is looked at again; after each write
 * the reconciler waits (briefly) for the cache to apply it, so the next look starts from it.
 */
final class NodeReconciler {

  private static final Logger log = LoggerFactory.getLogger(NodeReconciler.class);

  /** How long a reconciliation waits for the cache to apply its own write. */
  private static final Duration CACHE_LAG = Duration.ofSeconds(2);

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
  private final Ownership ownership;
  private final NodeMetrics metrics;
  private final Clock clock;
  private final Semaphore bmcPermits;
  private final NodeKube kube;
  private final Map<String, Instant> drawReadAt = new ConcurrentHashMap<>();

  /** Failed BMC calls: a WARN once per cause per node, an INFO at recovery. */
  private final FailureLog bmcLog;

  /** Nodes whose driver answered a first-contact inspection as unsupported, with its interface. */
  private final Map<String, PowerInterface> cannotInspect = new ConcurrentHashMap<>();

  /** Nodes inspected for their system UUID since this controller started ({@code IDENTITY}). */
  private final Set<String> identityInspected = ConcurrentHashMap.newKeySet();

  private volatile boolean stopping;

  /**
   * A reconciler of the controller built by {@code parts}, acting on what {@code ownership} allows
   * and recording to {@code metrics}.
   */
  NodeReconciler(NodeController.Builder parts, Ownership ownership, NodeMetrics metrics) {
    this.config = parts.config;
    this.cache = parts.cache;
    this.store = parts.store;
    this.drivers = parts.drivers;
    this.ownership = ownership;
    this.metrics = metrics;
    this.clock = parts.clock;
    this.bmcPermits = new Semaphore(config.bmcConcurrency(), true);
    this.kube = new NodeKube(parts.cluster, ownership, parts.clock);
    this.bmcLog = new FailureLog(log, "node", "bmc", parts.clock);
  }

  /**
   * Reconciles node {@code id}; {@code sync}: a periodic sync, which also reads the power draw of a
   * powered-on node when it is due ({@link NodeControllerConfig#readingsInterval()}).
   */
  Reconciled reconcile(String id, boolean sync) throws InterruptedException {
    WriteFence fence = ownership.fence(id).orElse(null);
    if (fence == null) {
      return Reconciled.settled(ReconcileResult.SKIPPED);
    }
    Optional<Node> found = cache.node(id);
    if (found.isEmpty()) {
      forget(id);
      return Reconciled.settled(ReconcileResult.GONE);
    }
    Node node = found.get();
    NodeSpec spec = node.spec();
    PoolConfig pool =
        spec.pool() == null ? null : cache.pool(spec.pool()).map(Pool::config).orElse(null);
    NodeTimeouts timeouts = NodeStateMachine.timeouts(pool, config.timeouts());
    NodeBmc bmc =
        NodeBmc.of(drivers, id, spec, bmcPermits, config.bmcCallTimeout(), () -> stopping);
    PowerReading power = bmc.read();
    if (Thread.interrupted()) {
      // closing: a read cut short is not a BMC failure to record
      throw new InterruptedException("interrupted while reading the BMC");
    }
    if (power.failed()) {
      bmcLog.failed(id, cause(power.error()), power.error());
    } else {
      bmcLog.recovered(id);
    }
    KubeView view = kube.observe(id, spec, node.status());
    Observation seen =
        new Observation(
            spec,
            node.specRevision(),
            node.status(),
            power,
            view,
            timeouts,
            pool == null ? Map.of() : pool.labels(),
            clock.instant());
    Decision d = NodeStateMachine.decide(seen);
    if (d.action().kind() == Action.Kind.LIST_PODS) {
      // the cache shows no workload left: decide again on the API server's own list
      d = NodeStateMachine.decide(seen.withKube(kube.withServerPods(id, spec, view)));
      if (d.action().kind() == Action.Kind.LIST_PODS) {
        throw new IllegalStateException("node " + id + ": pods asked for twice in one decision");
      }
    }
    d = withInspection(node, d, power, bmc, identityUnknown(id, node.status(), view));
    d = withIdentity(node, d, view.identity());
    Writes writes = new Writes();
    if (sync && power.state() == BmcPowerState.ON && !spec.inMaintenance() && drawDue(id)) {
      readWatts(node, bmc, fence, writes);
    }
    Reconciled done = execute(node, d, fence, power, bmc, writes);
    writes.awaitCache();
    return done;
  }

  /**
   * {@code d} with the node's hardware inspection folded into its status, when one is due ({@link
   * Inspection#due}) and {@code d} is no power action (a power action's status is written ahead;
   * the inspection waits for the next look), and with the hardware conditions brought up to date
   * with the spec. The result is written with {@code d}'s status, in one write, only when something
   * changed. A transient failure leaves the request for the next look; a terminal one concludes it
   * with the error (a first contact whose driver cannot inspect is remembered in memory instead, so
   * the BMC is not asked again and nothing is written).
   */
  private Decision withInspection(
      Node node, Decision d, PowerReading power, NodeBmc bmc, boolean identityUnknown)
      throws InterruptedException {
    String id = node.id();
    NodeSpec spec = node.spec();
    Instant now = clock.instant();
    NodeStatus next = d.next();
    if (!d.action().isPower() && !stopping) {
      boolean can =
          spec.powerInterface() != null
              && spec.powerInterface().capabilities().inspection()
              && !spec.powerInterface().equals(cannotInspect.get(id));
      boolean settled =
          d.action().kind() == Action.Kind.NONE
              && d.event() == null
              && d.requeue() == Requeue.NEXT_SYNC;
      Inspection.Due due =
          Inspection.due(node.status(), !power.failed(), can, settled, identityUnknown);
      if (due != Inspection.Due.NO) {
        try {
          HardwareInfo info = bmc.inspect();
          identityInspected.add(id); // once per process: a BMC that tells no UUID is asked once
          next = Inspection.inspected(next, Inspection.hardware(info, now), null, now);
          log.info("node {}: hardware inspected ({})", id, due);
        } catch (TerminalPowerException e) {
          identityInspected.add(id);
          if (due == Inspection.Due.FIRST_CONTACT
              && e.reason() == PowerException.Reason.UNSUPPORTED) {
            cannotInspect.put(id, spec.powerInterface());
          } else {
            next = Inspection.inspected(next, null, NodeBmc.failure(e), now);
            log.info("node {}: inspection failed: {}", id, NodeBmc.failure(e));
          }
        } catch (PowerException e) {
          log.debug("node {}: inspection not done: {}", id, e.getMessage());
        }
      }
    }
    next = Inspection.withConditions(spec, next, now);
    return next == d.next() ? d : new Decision(next, d.action(), d.event(), d.drift(), d.requeue());
  }

  /**
   * {@code d} with the node's {@code KubernetesIdentityRefused} condition brought up to date with
   * {@code identity} (null: no Kubernetes node was checked); a new refusal is counted ({@code
   * bamel_kubernetes_identity_refusals_total}), logged, and recorded as an event when {@code d}
   * records none of its own.
   */
  private Decision withIdentity(Node node, Decision d, KubeIdentity.Verdict identity) {
    NodeStatus next = IdentityCondition.apply(d.next(), identity, clock.instant());
    if (next == d.next()) {
      return d;
    }
    NodeEvent event = d.event();
    if (IdentityCondition.newRefusal(node.status(), next)) {
      event = refused(node.id(), identity, event);
    }
    return new Decision(next, d.action(), event, d.drift(), d.requeue());
  }

  /**
   * Counts and logs a new refusal of node {@code id}'s Kubernetes node; the event to store: {@code
   * event} when there is one, else one recording the refusal.
   */
  private NodeEvent refused(String id, KubeIdentity.Verdict identity, NodeEvent event) {
    metrics.identityRefusal(identity.outcome().label());
    log.atWarn()
        .addKeyValue("node", id)
        .addKeyValue("reason", identity.outcome().label())
        .log(
            "Kubernetes identity refused node={} reason={}: {}",
            id,
            identity.outcome().label(),
            identity.detail());
    return event != null
        ? event
        : NodeEvent.of(
            clock.instant(), NodeCondition.KUBERNETES_IDENTITY_REFUSED, identity.detail());
  }

  /**
   * Whether node {@code id}'s Kubernetes node was refused for want of an identity, no system UUID
   * is stored, and no inspection was tried for it yet by this controller.
   */
  private boolean identityUnknown(String id, NodeStatus status, KubeView view) {
    return view.mode() == KubeView.Mode.REFUSED
        && view.identity().outcome() == KubeIdentity.Outcome.UNKNOWN
        && NodeKube.systemUuid(status) == null
        && !identityInspected.contains(id);
  }

  /** The controller is closing: no power action begins from now on. */
  void stop() {
    stopping = true;
  }

  void forget(String id) {
    bmcLog.forget(id);
    kube.forget(id);
    metrics.forget(id);
    drawReadAt.remove(id);
    cannotInspect.remove(id);
    identityInspected.remove(id);
  }

  /**
   * Whether node {@code id}'s power draw is due for a read ({@link
   * NodeControllerConfig#readingsInterval()}); if so, it counts as read now.
   */
  private boolean drawDue(String id) {
    Instant now = clock.instant();
    Instant last = drawReadAt.get(id);
    if (last != null && last.plus(config.readingsInterval()).isAfter(now)) {
      return false;
    }
    drawReadAt.put(id, now);
    return true;
  }

  /**
   * Reads the power draw into the gauge, and writes it to etcd when the readings policy says it is
   * worth a write compared with the copy's stored reading.
   */
  private void readWatts(Node node, NodeBmc bmc, WriteFence fence, Writes writes)
      throws InterruptedException {
    String id = node.id();
    try {
      OptionalDouble watts = bmc.watts();
      if (watts.isPresent()) {
        double value = watts.getAsDouble();
        Instant now = clock.instant();
        if (config.readings().shouldWrite(node.readings(), value, now)) {
          writes.wrote(store.putReadings(id, new NodeReadings(now, value, null, null), fence));
        }
        metrics.watts(id, value); // after any write: the gauge never leads etcd
      }
    } catch (PowerException e) {
      log.debug("no power reading for {}: {}", id, e.getMessage());
    }
  }

  // ---------------------------------------------------------------- acting

  private Reconciled execute(
      Node node, Decision d, WriteFence fence, PowerReading power, NodeBmc bmc, Writes writes)
      throws InterruptedException {
    String id = node.id();
    Action action = d.action();
    if (action.isPower()) {
      if (stopping) {
        // closing: the next owner decides again
        return Reconciled.settled(ReconcileResult.STOPPED);
      }
      Node ahead = written(node, d, write(node, d, fence, writes));
      if (!ownership.owns(id)) {
        // ownership lost since the fence was taken: the new owner finds the write-ahead
        return Reconciled.settled(ReconcileResult.FENCED);
      }
      return callBmc(ahead, d, fence, bmc, writes);
    }
    if (action.kind() != Action.Kind.NONE) {
      try {
        kube.act(id, node.spec(), node.status(), action);
      } catch (IdentityRefusedException e) {
        // the Kubernetes node changed since it was observed: nothing was sent
        NodeStatus refused = IdentityCondition.apply(node.status(), e.verdict(), clock.instant());
        if (refused != node.status()) {
          NodeEvent event =
              IdentityCondition.newRefusal(node.status(), refused)
                  ? refused(id, e.verdict(), null)
                  : null;
          write(node, new Decision(refused, Action.NONE, event, null), fence, writes);
        }
        return Reconciled.settled(ReconcileResult.OK);
      } catch (KubeNodeUnseenException e) {
        // the cache does not hold the node the decision named: nothing sent, look again soon
        log.info("node {}: {}", id, e.getMessage());
        return new Reconciled(ReconcileResult.REQUEUE, Requeue.POLL);
      } catch (ClusterFencedException e) {
        // deposed between the decision and the write: nothing was sent; the new owner decides
        log.info("node {}: {} skipped: {}", id, action.text(), e.getMessage());
        return Reconciled.settled(ReconcileResult.FENCED);
      } catch (ClusterException e) {
        // nothing recorded: the action is idempotent and tried again soon
        log.debug("node {}: {} failed: {}", id, action.text(), e.getMessage());
        return new Reconciled(ReconcileResult.REQUEUE, Requeue.POLL);
      }
    }
    if (d.event() != null || !d.next().equals(node.status())) {
      write(node, d, fence, writes);
    }
    ReconcileResult result =
        power.failed()
            ? ReconcileResult.ERROR
            : d.requeue() == Requeue.NEXT_SYNC ? ReconcileResult.OK : ReconcileResult.REQUEUE;
    return new Reconciled(result, d.requeue());
  }

  /**
   * Calls the BMC for the power action of {@code d}, whose status {@code ahead} carries (written
   * ahead), and records the outcome. A graceful off the BMC cannot do becomes a forced off at once
   * ({@link NodeStateMachine#gracefulOffUnsupported(Decision, String, Instant)}), written ahead in
   * turn and then sent.
   */
  private Reconciled callBmc(Node ahead, Decision d, WriteFence fence, NodeBmc bmc, Writes writes)
      throws InterruptedException {
    String id = ahead.id();
    Action action = d.action();
    try {
      PowerResult result = bmc.act(action);
      log.info(
          "power action node={} action={} interface={} result=ok sent=\"{}\"",
          id,
          action.text(),
          ahead.spec().powerInterface(),
          result.summary());
      Decision sent = NodeStateMachine.powerActionSent(d, result, clock.instant());
      if (sent != null) {
        write(ahead, sent, fence, writes);
      }
      return new Reconciled(ReconcileResult.OK, d.requeue());
    } catch (PowerException e) {
      if (Thread.interrupted()) {
        // closing: whether the call reached the BMC is unknown, so the written-ahead status
        // stays; the next leader checks the BMC before the step's timeout says otherwise
        log.info("node {}: {} interrupted by shutdown", id, action.text());
        throw new InterruptedException("interrupted during " + action.text());
      }
      if (NodeStateMachine.gracefulOffUnsupported(action, e)) {
        Decision force =
            NodeStateMachine.gracefulOffUnsupported(d, NodeBmc.failure(e), clock.instant());
        log.info("node {}: {}", id, force.event().reason());
        Node forced = written(ahead, force, write(ahead, force, fence, writes));
        if (stopping) {
          return Reconciled.settled(ReconcileResult.STOPPED);
        }
        if (!ownership.owns(id)) {
          // the forced off is written ahead: the new owner finds it
          return Reconciled.settled(ReconcileResult.FENCED);
        }
        return callBmc(forced, force, fence, bmc, writes);
      }
      bmcLog.failed(id, e.reason().name(), NodeBmc.failure(e));
      Decision failed = NodeStateMachine.powerActionFailed(d, NodeBmc.failure(e), clock.instant());
      write(ahead, failed, fence, writes);
      log.info("node {}: {}", id, failed.next().lastError());
      return new Reconciled(ReconcileResult.ERROR, failed.requeue());
    }
  }

  /**
   * Writes the decision's status and event, on the condition that the status is still the one of
   * the copy {@code node} and the fence holds, without reading the node; counts the transition and
   * drift.
   */
  private long write(Node node, Decision d, WriteFence fence, Writes writes) {
    NodeEvent event = d.event();
    long written = writes.wrote(store.putStatus(node, d.next(), event, fence));
    if (event != null && event.from() != event.to()) {
      metrics.transition(String.valueOf(event.from()), String.valueOf(event.to()));
      log.atInfo()
          .addKeyValue("node", node.id())
          .addKeyValue("action", event.action())
          .addKeyValue("reason", event.reason())
          .log(
              "node transition node={} from={} to={}{}{} reason=\"{}\"",
              node.id(),
              event.from(),
              event.to(),
              event.action() == null ? "" : " action=" + event.action(),
              event.result() == null ? "" : " result=" + event.result(),
              event.reason());
      kube.noticeTransition(node.id(), node.spec(), node.status(), event);
    }
    if (d.drift() != null) {
      metrics.drift(d.drift().direction());
    }
    String remediation = NodeStateMachine.remediation(node.status(), d);
    if (remediation != null) {
      metrics.remediation(remediation);
      log.info("node remediation node={} result={}", node.id(), remediation);
    }
    return written;
  }

  /**
   * The cause word of a failed read's error ({@link NodeBmc#failure}: {@code REASON: message}), or
   * the whole error when it has none (a node without a usable power interface).
   */
  static String cause(String error) {
    int colon = error.indexOf(':');
    return colon > 0 && error.substring(0, colon).matches("[A-Z_]+")
        ? error.substring(0, colon)
        : error;
  }

  /** The copy of {@code node} after {@code d}'s status was written at {@code revision}. */
  private static Node written(Node node, Decision d, long revision) {
    return new Node(
        node.id(), node.spec(), node.specRevision(), d.next(), revision, node.readings());
  }

  /** The revisions one reconciliation wrote at, so that it can wait for the cache to apply them. */
  private final class Writes {
    private long newest;

    long wrote(long revision) {
      newest = Math.max(newest, revision);
      return revision;
    }

    /** Waits (bounded) until the cache has applied every write of this reconciliation. */
    void awaitCache() throws InterruptedException {
      if (newest > 0 && !cache.awaitRevision(newest, CACHE_LAG)) {
        log.debug("the cache has not applied revision {} after {}", newest, CACHE_LAG);
      }
    }
  }
}
