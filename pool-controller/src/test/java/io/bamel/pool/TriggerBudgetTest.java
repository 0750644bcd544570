package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.JsonEnum;
import io.bamel.inventory.model.ScaleDirection;
import io.bamel.inventory.model.ScalingTrigger;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How a cycle's trigger queries run: at once (bounded), within one budget. The queries here are
 * fakes that block on latches, so every outcome is decided by what answered, not by how fast.
 */
class TriggerBudgetTest {

  private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

  private static ScalingTrigger trigger(String name, String query, String direction) {
    return new ScalingTrigger(
        name, query, 10.0, Duration.ZERO, JsonEnum.fromJson(ScaleDirection.class, direction), null);
  }

  /** A wait that a fake query does while it runs on the triggers' pool. */
  private interface Wait {
    boolean await() throws InterruptedException;
  }

  /** What {@code wait} says; an interrupt (the budget's cancel) fails the query as I/O does. */
  private static boolean waitFor(Wait wait) throws IOException {
    try {
      return wait.await();
    } catch (InterruptedException e) {
      throw new IOException("interrupted", e);
    }
  }

  /** Holds the query for {@code millis}. */
  private static void pause(long millis) throws IOException {
    waitFor(
        () -> {
          Thread.sleep(millis);
          return true;
        });
  }

  /** An up trigger named as its query. */
  private static ScalingTrigger up(String query) {
    return trigger(query, query, "up");
  }

  /**
   * The votes of one evaluation of {@code byPool} at T0, {@code concurrency} queries at once within
   * a budget of 60 s.
   */
  private static Map<String, Votes> evaluateOnce(
      InstantQuery query, int concurrency, Map<String, List<ScalingTrigger>> byPool) {
    try (PrometheusTriggers triggers =
        new PrometheusTriggers(query, Duration.ofSeconds(60), concurrency)) {
      return triggers.evaluate(byPool, T0);
    }
  }

  /** Blocks the query until {@code latch} opens. */
  private static void hold(CountDownLatch latch) throws IOException {
    waitFor(
        () -> {
          latch.await();
          return true;
        });
  }

  @Test
  void queriesRunAtOnce() {
    // Each query answers only once all three are in flight: run one after the other, none would.
    CountDownLatch allAsked = new CountDownLatch(3);
    InstantQuery rendezvous =
        q -> {
          allAsked.countDown();
          if (!waitFor(() -> allAsked.await(20, TimeUnit.SECONDS))) {
            throw new IOException("the queries did not run at once");
          }
          return List.of(50.0);
        };
    Map<String, Votes> votes =
        evaluateOnce(
            rendezvous, 4, Map.of("a", List.of(up("q1"), up("q2")), "b", List.of(up("q3"))));
    assertThat(votes.get("a").up()).containsExactlyInAnyOrder("q1", "q2");
    assertThat(votes.get("a").available()).isTrue();
    assertThat(votes.get("b").up()).containsExactly("q3");
  }

  @Test
  void atMostTheConcurrencyRunAtOnceAndAQuerySharedByPoolsRunsOnce() {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger calls = new AtomicInteger();
    InstantQuery counting =
        q -> {
          calls.incrementAndGet();
          most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          pause(20);
          inFlight.decrementAndGet();
          return List.of(50.0);
        };
    Map<String, Votes> votes =
        evaluateOnce(
            counting,
            2,
            Map.of(
                "a", List.of(up("q1"), up("q2"), up("q3")),
                "b", List.of(up("q4"), trigger("same", "q1", "up"))));
    assertThat(votes.get("a").up()).containsExactlyInAnyOrder("q1", "q2", "q3");
    assertThat(votes.get("b").up()).containsExactlyInAnyOrder("q4", "same");
    assertThat(calls).hasValue(4);
    assertThat(most.get()).isBetween(1, 2);
  }

  @Test
  void aQueryNotAnsweredWithinTheBudgetFailsAndTheOthersStillCount() {
    CountDownLatch never = new CountDownLatch(1);
    InstantQuery slowIdle =
        q -> {
          if (q.equals("idle")) {
            hold(never);
          }
          return List.of(q.equals("idle") ? 1.0 : 50.0);
        };
    try (PrometheusTriggers triggers =
        new PrometheusTriggers(slowIdle, Duration.ofMillis(300), 4)) {
      List<ScalingTrigger> web =
          List.of(trigger("idle", "idle", "down"), trigger("queue", "queue", "up"));
      Votes votes = triggers.evaluate("web", web, T0);
      assertThat(votes.up()).containsExactly("queue");
      assertThat(votes.down()).isEmpty();
      assertThat(votes.downTriggers()).containsExactly("idle");
      assertThat(votes.available()).isFalse();
      assertThat(votes.reason()).isEqualTo("trigger idle: no answer within the budget of 300 ms");

      // Answered again: it votes (duration zero), and the pool's votes are available.
      never.countDown();
      Votes next = triggers.evaluate("web", web, T0.plusSeconds(15));
      assertThat(next.down()).containsExactly("idle");
      assertThat(next.available()).isTrue();
    } finally {
      never.countDown();
    }
  }

  @Test
  void aTimedOutQueryRestartsItsTriggersWindow() {
    AtomicInteger call = new AtomicInteger();
    CountDownLatch never = new CountDownLatch(1);
    InstantQuery secondCallHangs =
        q -> {
          if (call.incrementAndGet() == 2) {
            hold(never);
          }
          return List.of(50.0);
        };
    ScalingTrigger queue =
        new ScalingTrigger("queue", "queue", 10.0, Duration.ofMinutes(1), ScaleDirection.UP, null);
    try (PrometheusTriggers triggers =
        new PrometheusTriggers(secondCallHangs, Duration.ofMillis(200), 2)) {
      assertThat(triggers.evaluate("p", List.of(queue), T0).up()).isEmpty();
      assertThat(triggers.evaluate("p", List.of(queue), T0.plusSeconds(30)).available()).isFalse();
      // Held at T0, failed at T0+30s: the window starts again at T0+60s.
      assertThat(triggers.evaluate("p", List.of(queue), T0.plusSeconds(60)).up()).isEmpty();
      assertThat(triggers.evaluate("p", List.of(queue), T0.plusSeconds(120)).up())
          .containsExactly("queue");
    } finally {
      never.countDown();
    }
  }
}
