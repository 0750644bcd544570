package io.bamel.inventory.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link NodeStatus}; start from {@link NodeStatus#builder()} or {@link
 * NodeStatus#toBuilder()}.
 */
public final class NodeStatusBuilder {

  private NodeState state;
  private Instant stateSince;
  private String lastError;
  private Integer errorCount;
  private ObservedPower observedPower;
  private LastPowerAction lastPowerAction;
  private Instant powerActionTime;
  private String kubernetesNode;
  private Boolean nodeReady;
  private Boolean bmcReachable;
  private Instant bootTime;
  private Instant joinTime;
  private Long observedSpecRevision;
  private Instant timerStarted;
  private Duration timerElapsed;
  private Boolean powerCycled;
  private Instant inspectRequestedAt;
  private NodeHardware hardware;
  private List<NodeCondition> conditions;
  private Instant notReadySince;
  private Map<String, Object> extensions;

  NodeStatusBuilder() {}

  NodeStatusBuilder(NodeStatus s) {
    this.state = s.state();
    this.stateSince = s.stateSince();
    this.lastError = s.lastError();
    this.errorCount = s.errorCount();
    this.observedPower = s.observedPower();
    this.lastPowerAction = s.lastPowerAction();
    this.powerActionTime = s.powerActionTime();
    this.kubernetesNode = s.kubernetesNode();
    this.nodeReady = s.nodeReady();
    this.bmcReachable = s.bmcReachable();
    this.bootTime = s.bootTime();
    this.joinTime = s.joinTime();
    this.observedSpecRevision = s.observedSpecRevision();
    this.timerStarted = s.timerStarted();
    this.timerElapsed = s.timerElapsed();
    this.powerCycled = s.powerCycled();
    this.inspectRequestedAt = s.inspectRequestedAt();
    this.hardware = s.hardware();
    this.conditions = s.conditions();
    this.notReadySince = s.notReadySince();
    this.extensions = s.extensions();
  }

  /** Sets {@code state}. */
  public NodeStatusBuilder state(NodeState state) {
    this.state = state;
    return this;
  }

  /** Sets {@code stateSince}. */
  public NodeStatusBuilder stateSince(Instant stateSince) {
    this.stateSince = stateSince;
    return this;
  }

  /** Sets {@code lastError}. */
  public NodeStatusBuilder lastError(String lastError) {
    this.lastError = lastError;
    return this;
  }

  /** Sets {@code errorCount}. */
  public NodeStatusBuilder errorCount(Integer errorCount) {
    this.errorCount = errorCount;
    return this;
  }

  /** Sets {@code observedPower} ({@code powerState} in JSON). */
  public NodeStatusBuilder observedPower(ObservedPower observedPower) {
    this.observedPower = observedPower;
    return this;
  }

  /** Sets {@code lastPowerAction}. */
  public NodeStatusBuilder lastPowerAction(LastPowerAction lastPowerAction) {
    this.lastPowerAction = lastPowerAction;
    return this;
  }

  /** Sets {@code powerActionTime}. */
  public NodeStatusBuilder powerActionTime(Instant powerActionTime) {
    this.powerActionTime = powerActionTime;
    return this;
  }

  /** Sets {@code kubernetesNode}. */
  public NodeStatusBuilder kubernetesNode(String kubernetesNode) {
    this.kubernetesNode = kubernetesNode;
    return this;
  }

  /** Sets {@code nodeReady}. */
  public NodeStatusBuilder nodeReady(Boolean nodeReady) {
    this.nodeReady = nodeReady;
    return this;
  }

  /** Sets {@code bmcReachable}. */
  public NodeStatusBuilder bmcReachable(Boolean bmcReachable) {
    this.bmcReachable = bmcReachable;
    return this;
  }

  /** Sets {@code bootTime}. */
  public NodeStatusBuilder bootTime(Instant bootTime) {
    this.bootTime = bootTime;
    return this;
  }

  /** Sets {@code joinTime}. */
  public NodeStatusBuilder joinTime(Instant joinTime) {
    this.joinTime = joinTime;
    return this;
  }

  /** Sets {@code observedSpecRevision}. */
  public NodeStatusBuilder observedSpecRevision(Long observedSpecRevision) {
    this.observedSpecRevision = observedSpecRevision;
    return this;
  }

  /** Sets {@code timerStarted}. */
  public NodeStatusBuilder timerStarted(Instant timerStarted) {
    this.timerStarted = timerStarted;
    return this;
  }

  /** Sets {@code timerElapsed}. */
  public NodeStatusBuilder timerElapsed(Duration timerElapsed) {
    this.timerElapsed = timerElapsed;
    return this;
  }

  /** Sets {@code powerCycled}. */
  public NodeStatusBuilder powerCycled(Boolean powerCycled) {
    this.powerCycled = powerCycled;
    return this;
  }

  /** Sets {@code notReadySince}. */
  public NodeStatusBuilder notReadySince(Instant notReadySince) {
    this.notReadySince = notReadySince;
    return this;
  }

  /** Starts the step timer afresh at {@code now}. */
  public NodeStatusBuilder restartTimer(Instant now) {
    this.timerStarted = now;
    this.timerElapsed = Duration.ZERO;
    return this;
  }

  /** Sets {@code inspectRequestedAt}. */
  public NodeStatusBuilder inspectRequestedAt(Instant inspectRequestedAt) {
    this.inspectRequestedAt = inspectRequestedAt;
    return this;
  }

  /** Sets {@code hardware}. */
  public NodeStatusBuilder hardware(NodeHardware hardware) {
    this.hardware = hardware;
    return this;
  }

  /** Sets {@code conditions}. */
  public NodeStatusBuilder conditions(List<NodeCondition> conditions) {
    this.conditions = conditions;
    return this;
  }

  /** Sets {@code extensions}. */
  public NodeStatusBuilder extensions(Map<String, Object> extensions) {
    this.extensions = extensions;
    return this;
  }

  /** The NodeStatus. */
  public NodeStatus build() {
    return new NodeStatus(
        state,
        stateSince,
        lastError,
        errorCount,
        observedPower,
        lastPowerAction,
        powerActionTime,
        kubernetesNode,
        nodeReady,
        bmcReachable,
        bootTime,
        joinTime,
        observedSpecRevision,
        timerStarted,
        timerElapsed,
        powerCycled,
        inspectRequestedAt,
        hardware,
        conditions,
        notReadySince,
        extensions);
  }
}
