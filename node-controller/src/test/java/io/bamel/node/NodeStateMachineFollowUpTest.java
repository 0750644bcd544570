package io.bamel.node;

import static io.bamel.node.NodeStateMachineTest.ABSENT;
import static io.bamel.node.NodeStateMachineTest.DOWN_K8S;
import static io.bamel.node.NodeStateMachineTest.JUST;
import static io.bamel.node.NodeStateMachineTest.NO_K8S;
import static io.bamel.node.NodeStateMachineTest.OFF_;
import static io.bamel.node.NodeStateMachineTest.ON_;
import static io.bamel.node.NodeStateMachineTest.READY_EMPTY;
import static io.bamel.node.NodeStateMachineTest.T0;
import static io.bamel.node.NodeStateMachineTest.decide;
import static io.bamel.node.NodeStateMachineTest.spec;
import static io.bamel.node.NodeStateMachineTest.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import io.bamel.inventory.model.PowerAction;
import io.bamel.node.Decision.Requeue;
import io.bamel.power.BmcPowerState;
import io.bamel.power.PowerException;
import io.bamel.power.PowerResult;
import io.bamel.power.TerminalPowerException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What follows a decision: when the node is looked at again, and a power action that failed. */
class NodeStateMachineFollowUpTest {

  static Stream<Arguments> requeues() {
    return Stream.of(
        // from, desired, BMC, Kubernetes -> requeue
        Arguments.of(NodeState.OFF, DesiredPower.OFF, OFF_, ABSENT, Requeue.NEXT_SYNC),
        Arguments.of(NodeState.READY, DesiredPower.ON, ON_, READY_EMPTY, Requeue.NEXT_SYNC),
        Arguments.of(NodeState.OFF, DesiredPower.ON, OFF_, ABSENT, Requeue.POLL), // power-on sent
        Arguments.of(NodeState.POWERING_ON, DesiredPower.ON, OFF_, ABSENT, Requeue.POLL),
        Arguments.of(NodeState.JOINING, DesiredPower.ON, ON_, ABSENT, Requeue.POLL),
        Arguments.of(NodeState.READY, DesiredPower.OFF, ON_, READY_EMPTY, Requeue.POLL), // drain
        Arguments.of(NodeState.POWERING_OFF, DesiredPower.OFF, ON_, ABSENT, Requeue.POLL),
        // desired off, Kubernetes unreachable: the drain waits, looked at again soon
        Arguments.of(NodeState.READY, DesiredPower.OFF, ON_, DOWN_K8S, Requeue.POLL),
        Arguments.of(NodeState.READY, DesiredPower.ON, ON_, DOWN_K8S, Requeue.NEXT_SYNC),
        Arguments.of(NodeState.ERROR, DesiredPower.ON, ON_, DOWN_K8S, Requeue.BACKOFF),
        Arguments.of(NodeState.READY, DesiredPower.ON, ON_, NO_K8S, Requeue.NEXT_SYNC));
  }

  @ParameterizedTest(name = "{0} desired={1} bmc={2} -> {4}")
  @MethodSource("requeues")
  void theDecisionSaysWhenToLookAgain(
      NodeState from, DesiredPower desired, BmcPowerState power, KubeView kube, Requeue expected) {
    assertThat(decide(spec(desired), status(from, JUST), power, kube).requeue())
        .isEqualTo(expected);
  }

  @Test
  void aBmcThatDoesNotAnswerIsRetriedWithBackoff() {
    Decision d =
        NodeStateMachine.decide(
            new Observation(
                spec(DesiredPower.ON),
                7,
                status(NodeState.READY, JUST),
                PowerReading.failed("TIMEOUT: no answer"),
                NO_K8S,
                NodeTimeouts.DEFAULTS,
                Map.of(),
                T0));
    assertThat(d.next().state()).isEqualTo(NodeState.READY);
    assertThat(d.requeue()).isEqualTo(Requeue.BACKOFF);
  }

  @Test
  void aFailedPowerActionErrsFromTheWrittenAheadStatusAndBacksOff() {
    Decision ahead =
        decide(spec(DesiredPower.ON), status(NodeState.OFF, JUST), OFF_, ABSENT)
            .withRequeue(Requeue.POLL);
    assertThat(ahead.action().verb()).isEqualTo(PowerAction.POWER_ON);
    Instant later = T0.plus(Duration.ofSeconds(3));

    Decision failed =
        NodeStateMachine.powerActionFailed(ahead, "UNREACHABLE: connection refused", later);

    NodeStatus s = failed.next();
    assertThat(s.state()).isEqualTo(NodeState.ERROR);
    assertThat(s.stateSince()).isEqualTo(later);
    assertThat(s.lastError()).isEqualTo("power-on failed: UNREACHABLE: connection refused");
    assertThat(s.errorCount()).isEqualTo(ahead.next().errors() + 1);
    assertThat(s.timerStarted()).isNull();
    assertThat(s.lastPowerAction()).as("the write-ahead stays").isEqualTo(PowerAction.POWER_ON);
    assertThat(s.powerActionTime()).isEqualTo(ahead.next().powerActionTime());
    assertThat(failed.action()).isEqualTo(Action.NONE);
    assertThat(failed.drift()).isNull();
    assertThat(failed.requeue()).isEqualTo(Requeue.BACKOFF);
    NodeEvent e = failed.event();
    assertThat(e.from()).isEqualTo(NodeState.POWERING_ON);
    assertThat(e.to()).isEqualTo(NodeState.ERROR);
    assertThat(e.action()).isEqualTo("power-on");
    assertThat(e.result()).isEqualTo("failed");
    assertThat(e.reason()).isEqualTo(s.lastError());
    assertThat(e.time()).isEqualTo(later);
  }

  @Test
  void aPowerActionSentKeepsTheWrittenAheadStatusAndNamesWhatWasSent() {
    Decision ahead = decide(spec(DesiredPower.OFF), status(NodeState.READY, JUST), ON_, NO_K8S);
    assertThat(ahead.action().verb()).isEqualTo(PowerAction.POWER_OFF);
    Instant later = T0.plus(Duration.ofSeconds(1));
    PowerResult result =
        new PowerResult.Builder().sent("PushPowerButton").note("no GracefulShutdown").build();

    Decision sent = NodeStateMachine.powerActionSent(ahead, result, later);

    assertThat(sent.next()).isEqualTo(ahead.next());
    assertThat(sent.action()).isEqualTo(Action.NONE);
    NodeEvent e = sent.event();
    assertThat(e.from()).isEqualTo(NodeState.POWERING_OFF);
    assertThat(e.to()).isEqualTo(NodeState.POWERING_OFF);
    assertThat(e.action()).isEqualTo("power-off");
    assertThat(e.result()).isEqualTo("ok");
    assertThat(e.reason()).isEqualTo("power-off: sent PushPowerButton; no GracefulShutdown");
    assertThat(NodeStateMachine.powerActionSent(ahead, PowerResult.unreported(), later))
        .as("nothing to add for a driver that does not report")
        .isNull();
  }

  @Test
  void anUnsupportedGracefulOffIsForcedAtOnceWrittenAhead() {
    Decision ahead = decide(spec(DesiredPower.OFF), status(NodeState.READY, JUST), ON_, NO_K8S);
    Instant later = T0.plus(Duration.ofSeconds(1));
    TerminalPowerException e =
        new TerminalPowerException(PowerException.Reason.UNSUPPORTED, "no graceful reset type");
    assertThat(NodeStateMachine.gracefulOffUnsupported(ahead.action(), e)).isTrue();
    assertThat(
            NodeStateMachine.gracefulOffUnsupported(Action.power(PowerAction.POWER_ON, false), e))
        .isFalse();
    assertThat(
            NodeStateMachine.gracefulOffUnsupported(
                Action.power(PowerAction.POWER_OFF_FORCE, false), e))
        .as("a forced off that fails is an ordinary failure")
        .isFalse();
    assertThat(
            NodeStateMachine.gracefulOffUnsupported(
                ahead.action(),
                new TerminalPowerException(PowerException.Reason.BAD_CREDENTIALS, "denied")))
        .isFalse();

    Decision force = NodeStateMachine.gracefulOffUnsupported(ahead, NodeBmc.failure(e), later);

    assertThat(force.action()).isEqualTo(Action.power(PowerAction.POWER_OFF_FORCE, false));
    assertThat(force.next().state()).isEqualTo(NodeState.POWERING_OFF);
    assertThat(force.next().lastPowerAction()).isEqualTo(PowerAction.POWER_OFF_FORCE);
    assertThat(force.next().powerActionTime()).isEqualTo(later);
    assertThat(force.next().timerAt(later)).isEqualTo(Duration.ZERO);
    assertThat(force.requeue()).isEqualTo(Requeue.POLL);
    assertThat(force.event().result()).isEqualTo("unsupported");
    assertThat(force.event().action()).isEqualTo("power-off");
    assertThat(force.event().reason())
        .isEqualTo(
            "power-off: nothing sent, no graceful off (UNSUPPORTED: no graceful reset type);"
                + " forcing at once");
  }
}
