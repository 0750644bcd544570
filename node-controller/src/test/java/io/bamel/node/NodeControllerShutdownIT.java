package io.bamel.node;

import static io.bamel.inventory.model.NodeState.OFF;
import static io.bamel.inventory.model.NodeState.POWERING_ON;
import static io.bamel.inventory.model.NodeState.READY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PowerAction;
import io.bamel.power.PowerOperation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeController#close()}: no new work, power actions under way finish within the shutdown
 * timeout, what still hangs after it is interrupted, and close returns within the bound.
 */
class NodeControllerShutdownIT extends TestSiteTests {

  static final Duration WAIT = Duration.ofSeconds(30);

  CountingDriver held;

  @AfterEach
  void tearDown() {
    if (held != null) {
      held.release(); // a hung call ends
    }
  }

  /** One node switched off, the controller leading, its calls counted. */
  TestSite.Wrapped<CountingDriver> start(String id, NodeControllerConfig config) throws Exception {
    TestSite.Wrapped<CountingDriver> counted = site.counted("a", config);
    site.awaitState(List.of(id), OFF, WAIT);
    return counted;
  }

  /** A node whose power-on hangs in the driver, and the controller that sent it. */
  record Hanging(String id, ControllerInstance controller, CountingDriver driver) {}

  /**
   * Opens the site with one node switched off and a leading controller (shutdown bound {@code
   * bound}) whose power-on of it hangs in the driver, until interrupted or ignoring interrupts
   * ({@link CountingDriver#hold}); the hold is released after the test.
   */
  Hanging hangingPowerOn(Duration bound, boolean ignoreInterrupts) throws Exception {
    openSite();
    String id = site.addNodes(1, "batch", DesiredPower.OFF).get(0);
    TestSite.Wrapped<CountingDriver> started =
        start(id, TestSite.CONFIG.withShutdownTimeout(bound));
    held = started.driver();
    held.hold(ignoreInterrupts);
    site.desire(id, DesiredPower.ON);
    await().atMost(WAIT).until(() -> held.waiting() == 1);
    return new Hanging(id, started.controller(), held);
  }

  @Test
  void closeLetsASlowPowerOnReachItsBmcAndLeavesAConsistentWriteAhead() throws Exception {
    openSite();
    List<String> ids = site.addNodes(2, "batch", DesiredPower.OFF);
    String id = ids.get(0);
    String later = ids.get(1);
    TestSite.Wrapped<CountingDriver> started =
        start(id, TestSite.CONFIG.withShutdownTimeout(Duration.ofSeconds(15)));
    ControllerInstance c = started.controller();
    CountingDriver calls = started.driver();
    site.awaitState(ids, OFF, WAIT);

    // a slow BMC: the driver's read and its reset take a second each
    site.fleet.system(id).faults().latency(Duration.ofSeconds(1));
    site.desire(id, DesiredPower.ON);
    await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(10))
        .until(() -> site.state(id) == POWERING_ON); // written ahead: the call is under way
    assertThat(site.accepted(id)).as("not at the BMC yet").isZero();

    long start = System.nanoTime();
    c.controller.close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(site.accepted(id)).as("the reset reached the BMC before close returned").isOne();
    assertThat(site.resets(id, "On")).isOne();
    assertThat(calls.calls(site.address(id), PowerOperation.ON)).isOne();
    assertThat(took).isLessThan(Duration.ofSeconds(15));
    NodeStatus status = site.node(id).status();
    assertThat(status.state()).isEqualTo(POWERING_ON);
    assertThat(status.lastPowerAction()).isEqualTo(PowerAction.POWER_ON);
    assertThat(status.powerActionTime()).isNotNull();
    assertThat(status.lastError()).isNull();
    assertThat(status.errorCount()).isZero();
    NodeEvent last = site.events(id).getLast();
    assertThat(last.to()).isEqualTo(POWERING_ON);
    assertThat(last.result()).isEqualTo("requested");

    // closed: a change is not acted on any more
    site.desire(later, DesiredPower.ON);
    Thread.sleep(500);
    assertThat(calls.calls(site.address(later), PowerOperation.ON)).isZero();
    assertThat(site.state(later)).isEqualTo(OFF);
    c.close();

    // the next leader finds the power-on done at the BMC: it only checks
    site.fleet.system(id).faults().latency(Duration.ZERO);
    CountingDriver next = site.counted("b", TestSite.CONFIG).driver();
    site.awaitState(ids, READY, WAIT);
    assertThat(next.calls(site.address(id), PowerOperation.ON)).isZero();
    assertThat(next.calls(site.address(later), PowerOperation.ON)).isOne();
    assertThat(site.resets(id, "On")).isOne();
  }

  @Test
  void closeReturnsWithinItsBoundWhenACallHangs() throws Exception {
    Duration bound = Duration.ofSeconds(1);
    Hanging hanging = hangingPowerOn(bound, true); // a power-on that ignores interrupts
    String id = hanging.id();

    long start = System.nanoTime();
    hanging.controller().controller.close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took)
        .as("waited for the call, then gave up at the bound (+1 s for interrupted workers)")
        .isGreaterThanOrEqualTo(bound)
        .isLessThan(bound.plusSeconds(2));
    assertThat(site.accepted(id)).isZero();
    assertThat(site.state(id)).as("the write-ahead stays").isEqualTo(POWERING_ON);
    assertThat(site.node(id).status().lastError()).isNull();
  }

  @Test
  void anInterruptedPowerOnLeavesItsWriteAheadToTheNextLeader() throws Exception {
    Duration bound = Duration.ofMillis(500);
    Hanging hanging = hangingPowerOn(bound, false); // a power-on that hangs until interrupted
    String id = hanging.id();
    CountingDriver calls = hanging.driver();
    Instant writtenAhead = site.node(id).status().powerActionTime();

    long start = System.nanoTime();
    hanging.controller().close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took).isGreaterThanOrEqualTo(bound).isLessThan(bound.plusSeconds(2));
    assertThat(calls.waiting()).as("the worker was interrupted and ended").isZero();
    assertThat(calls.calls(site.address(id), PowerOperation.ON)).isZero();
    NodeStatus status = site.node(id).status();
    assertThat(status.state())
        .as("no error written for a call cut by shutdown")
        .isEqualTo(POWERING_ON);
    assertThat(status.lastError()).isNull();
    assertThat(site.events(id)).noneMatch(e -> "failed".equals(e.result()));

    // the next leader checks the BMC (off), waits out the power-on timeout, then powers on once
    CountingDriver next = site.counted("b", TestSite.CONFIG).driver();
    site.awaitState(List.of(id), READY, WAIT);
    assertThat(next.calls(site.address(id), PowerOperation.ON)).isOne();
    assertThat(next.firstCall(site.address(id), PowerOperation.ON))
        .isAfterOrEqualTo(writtenAhead.plus(TestSite.TIMEOUTS.powerOn()));
    assertThat(site.resets(id, "On")).isOne();
  }
}
