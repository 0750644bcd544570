package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.kube.CircuitBreaker.State;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CircuitBreaker} as a table of steps. Failsafe times the open delay on {@code
 * System.nanoTime()} and takes no clock, so a step "the delay passed" ends it as its passing would
 * ({@link CircuitBreaker#delayPassed()}); the breaker opens for 5 s, far longer than a table runs.
 */
class CircuitBreakerTest {

  /**
   * One step: {@code op} is "allow" (expects {@code allowed}), "ok", "fail" or "delay passed"; then
   * the state is {@code state}.
   */
  record Step(String op, Boolean allowed, State state) {}

  record Case(String name, List<Step> steps) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Step allow(boolean allowed, State s) {
    return new Step("allow", allowed, s);
  }

  static Step ok(State s) {
    return new Step("ok", null, s);
  }

  static Step fail(State s) {
    return new Step("fail", null, s);
  }

  static Step delayPassed(State s) {
    return new Step("delay passed", null, s);
  }

  static List<Case> cases() {
    return List.of(
        new Case(
            "two failures stay closed; the third opens",
            List.of(
                allow(true, State.CLOSED),
                fail(State.CLOSED),
                allow(true, State.CLOSED),
                fail(State.CLOSED),
                allow(true, State.CLOSED),
                fail(State.OPEN),
                allow(false, State.OPEN))),
        new Case(
            "a success clears the count",
            List.of(
                fail(State.CLOSED),
                fail(State.CLOSED),
                ok(State.CLOSED),
                fail(State.CLOSED),
                fail(State.CLOSED),
                fail(State.OPEN))),
        new Case(
            "open refuses until the delay, then one probe; its success closes",
            List.of(
                fail(State.CLOSED),
                fail(State.CLOSED),
                fail(State.OPEN),
                allow(false, State.OPEN),
                delayPassed(State.HALF_OPEN),
                allow(true, State.HALF_OPEN),
                allow(false, State.HALF_OPEN),
                ok(State.CLOSED),
                allow(true, State.CLOSED))),
        new Case(
            "a failed probe opens again for the full delay",
            List.of(
                fail(State.CLOSED),
                fail(State.CLOSED),
                fail(State.OPEN),
                delayPassed(State.HALF_OPEN),
                allow(true, State.HALF_OPEN),
                fail(State.OPEN),
                allow(false, State.OPEN),
                delayPassed(State.HALF_OPEN),
                allow(true, State.HALF_OPEN))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void followsTheTable(Case c) {
    CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofSeconds(5));
    int i = 0;
    for (Step s : c.steps()) {
      String at = c.name() + ", step " + i++ + " (" + s.op() + ")";
      switch (s.op()) {
        case "allow" -> assertThat(breaker.allow()).as(at).isEqualTo(s.allowed());
        case "ok" -> breaker.success();
        case "fail" -> breaker.failure();
        default -> breaker.delayPassed();
      }
      assertThat(breaker.state()).as(at).isEqualTo(s.state());
    }
  }

  @Test
  void freshOnlyWhenTheLatestCallAnswered() {
    CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofSeconds(5));
    assertThat(breaker.fresh()).isTrue();
    breaker.failure();
    assertThat(breaker.fresh()).isFalse();
    assertThat(breaker.state()).isEqualTo(State.CLOSED);
    breaker.success();
    assertThat(breaker.fresh()).isTrue();
    breaker.failure();
    breaker.failure();
    breaker.failure();
    String verdict = breaker.verdict();
    assertThat(verdict).startsWith("Kubernetes unreachable").contains("after 3 consecutive");
    Matcher left = Pattern.compile("next probe in (\\d+) ms").matcher(verdict);
    assertThat(left.find()).as(verdict).isTrue();
    assertThat(Long.parseLong(left.group(1))).isBetween(1L, 5_000L);
  }

  @Test
  void aThresholdBelowOneIsRefused() {
    assertThatThrownBy(() -> new CircuitBreaker(0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
