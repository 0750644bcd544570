package io.bamel.inventory.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link NodeStatus}; start from {@link NodeStatus#builder()} or {@link
 * NodeStatus#toBuilder()}. Each setter sets the component of its name ({@code observedPower} is
 * {@code powerState} in JSON); {@link #build} runs the record's constructor, so its normalisation
 * applies.
 */
public final class NodeStatusBuilder {

  private NodeState state;
  private Instant stateSince;
  private String lastError;
  private Integer errorCount;
  private ObservedPower observedPower;
  private PowerAction lastPowerAction;
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

  public NodeStatusBuilder state(NodeState state) {
    this.state = state;
    return this;
  }

  public NodeStatusBuilder stateSince(Instant stateSince) {
    this.stateSince = stateSince;
    return this;
  }

  public NodeStatusBuilder lastError(String lastError) {
    this.lastError = lastError;
    return this;
  }

  public NodeStatusBuilder errorCount(Integer errorCount) {
    this.errorCount = errorCount;
    return this;
  }

  public NodeStatusBuilder observedPower(ObservedPower observedPower) {
    this.observedPower = observedPower;
    return this;
  }

  public NodeStatusBuilder lastPowerAction(PowerAction lastPowerAction) {
    this.lastPowerAction = lastPowerAction;
    return this;
  }

  public NodeStatusBuilder powerActionTime(Instant powerActionTime) {
    this.powerActionTime = powerActionTime;
    return this;
  }

  public NodeStatusBuilder kubernetesNode(String kubernetesNode) {
    this.kubernetesNode = kubernetesNode;
    return this;
  }

  public NodeStatusBuilder nodeReady(Boolean nodeReady) {
    this.nodeReady = nodeReady;
    return this;
  }

  public NodeStatusBuilder bmcReachable(Boolean bmcReachable) {
    this.bmcReachable = bmcReachable;
    return this;
  }

  public NodeStatusBuilder bootTime(Instant bootTime) {
    this.bootTime = bootTime;
    return this;
  }

  public NodeStatusBuilder joinTime(Instant joinTime) {
    this.joinTime = joinTime;
    return this;
  }

  public NodeStatusBuilder observedSpecRevision(Long observedSpecRevision) {
    this.observedSpecRevision = observedSpecRevision;
    return this;
  }

  public NodeStatusBuilder timerStarted(Instant timerStarted) {
    this.timerStarted = timerStarted;
    return this;
  }

  public NodeStatusBuilder timerElapsed(Duration timerElapsed) {
    this.timerElapsed = timerElapsed;
    return this;
  }

  public NodeStatusBuilder powerCycled(Boolean powerCycled) {
    this.powerCycled = powerCycled;
    return this;
  }

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

  public NodeStatusBuilder inspectRequestedAt(Instant inspectRequestedAt) {
    this.inspectRequestedAt = inspectRequestedAt;
    return this;
  }

  public NodeStatusBuilder hardware(NodeHardware hardware) {
    this.hardware = hardware;
    return this;
  }

  public NodeStatusBuilder conditions(List<NodeCondition> conditions) {
    this.conditions = conditions;
    return this;
  }

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
