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
  ControllerInstance start(String id, NodeControllerConfig config, CountingDriver[] calls)
      throws Exception {
    ControllerInstance c =
        site.controller("a", config, TestSite.drivers(d -> calls[0] = new CountingDriver(d)));
    site.awaitState(List.of(id), OFF, WAIT);
    return c;
  }

  @Test
  void closeLetsASlowPowerOnReachItsBmcAndLeavesAConsistentWriteAhead() throws Exception {
    site = new TestSite(ETCD.cluster(), false);
    List<String> ids = site.addNodes(2, "batch", DesiredPower.OFF);
    String id = ids.get(0);
    String later = ids.get(1);
    CountingDriver[] calls = new CountingDriver[1];
    ControllerInstance c =
        start(id, TestSite.CONFIG.withShutdownTimeout(Duration.ofSeconds(15)), calls);
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
    assertThat(calls[0].calls(site.address(id), PowerOperation.ON)).isOne();
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
    assertThat(calls[0].calls(site.address(later), PowerOperation.ON)).isZero();
    assertThat(site.state(later)).isEqualTo(OFF);
    c.close();

    // the next leader finds the power-on done at the BMC: it only checks
    site.fleet.system(id).faults().latency(Duration.ZERO);
    CountingDriver[] next = new CountingDriver[1];
    site.controller("b", TestSite.CONFIG, TestSite.drivers(d -> next[0] = new CountingDriver(d)));
    site.awaitState(ids, READY, WAIT);
    assertThat(next[0].calls(site.address(id), PowerOperation.ON)).isZero();
    assertThat(next[0].calls(site.address(later), PowerOperation.ON)).isOne();
    assertThat(site.resets(id, "On")).isOne();
  }

  @Test
  void closeReturnsWithinItsBoundWhenACallHangs() throws Exception {
    site = new TestSite(ETCD.cluster(), false);
    String id = site.addNodes(1, "batch", DesiredPower.OFF).get(0);
    CountingDriver[] calls = new CountingDriver[1];
    Duration bound = Duration.ofSeconds(1);
    ControllerInstance c = start(id, TestSite.CONFIG.withShutdownTimeout(bound), calls);
    held = calls[0];
    held.hold(true); // a power-on that hangs and ignores interrupts
    site.desire(id, DesiredPower.ON);
    await().atMost(WAIT).until(() -> held.waiting() == 1);

    long start = System.nanoTime();
    c.controller.close();
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
    site = new TestSite(ETCD.cluster(), false);
    String id = site.addNodes(1, "batch", DesiredPower.OFF).get(0);
    CountingDriver[] calls = new CountingDriver[1];
    Duration bound = Duration.ofMillis(500);
    ControllerInstance c = start(id, TestSite.CONFIG.withShutdownTimeout(bound), calls);
    calls[0].hold(false); // a power-on that hangs until interrupted
    site.desire(id, DesiredPower.ON);
    await().atMost(WAIT).until(() -> calls[0].waiting() == 1);
    Instant writtenAhead = site.node(id).status().powerActionTime();

    long start = System.nanoTime();
    c.close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(took).isGreaterThanOrEqualTo(bound).isLessThan(bound.plusSeconds(2));
    assertThat(calls[0].waiting()).as("the worker was interrupted and ended").isZero();
    assertThat(calls[0].calls(site.address(id), PowerOperation.ON)).isZero();
    NodeStatus status = site.node(id).status();
    assertThat(status.state())
        .as("no error written for a call cut by shutdown")
        .isEqualTo(POWERING_ON);
    assertThat(status.lastError()).isNull();
    assertThat(site.events(id)).noneMatch(e -> "failed".equals(e.result()));

    // the next leader checks the BMC (off), waits out the power-on timeout, then powers on once
    CountingDriver[] next = new CountingDriver[1];
    site.controller("b", TestSite.CONFIG, TestSite.drivers(d -> next[0] = new CountingDriver(d)));
    site.awaitState(List.of(id), READY, WAIT);
    assertThat(next[0].calls(site.address(id), PowerOperation.ON)).isOne();
    assertThat(next[0].firstCall(site.address(id), PowerOperation.ON))
        .isAfterOrEqualTo(writtenAhead.plus(TestSite.TIMEOUTS.powerOn()));
    assertThat(site.resets(id, "On")).isOne();
  }
}
