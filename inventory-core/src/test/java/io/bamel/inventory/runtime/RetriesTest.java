package io.bamel.inventory.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.failsafe.CircuitBreaker;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The numbers of {@link Retries}' policies: the same delays the hand-written backoff gave. */
class RetriesTest {

  private static final RetryPolicy<Object> STEADY =
      Retries.reconnect(Duration.ofMillis(100), Duration.ofSeconds(5)).build();

  @Test
  void delaysDoubleUpToTheMaximum() {
    assertThat(Retries.delayAfter(STEADY, 1)).isEqualTo(Duration.ofMillis(100));
    assertThat(Retries.delayAfter(STEADY, 2)).isEqualTo(Duration.ofMillis(200));
    assertThat(Retries.delayAfter(STEADY, 6)).isEqualTo(Duration.ofMillis(3_200));
    assertThat(Retries.delayAfter(STEADY, 7)).isEqualTo(Duration.ofSeconds(5));
    assertThat(Retries.delayAfter(STEADY, 1_001)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aConflictDrawsBetweenZeroAndACeilingFrom2To50Ms() {
    RetryPolicy<Object> conflict = Retries.conflict(50).build();
    Duration[] longest = new Duration[10];
    for (int retry = 0; retry < 10; retry++) {
      Duration ceiling = Duration.ofMillis(Math.min(2L << retry, 50));
      longest[retry] = Duration.ZERO;
      for (int i = 0; i < 200; i++) {
        Duration d = Retries.delayAfter(conflict, retry + 1);
        assertThat(d).isBetween(Duration.ZERO, ceiling);
        longest[retry] = d.compareTo(longest[retry]) > 0 ? d : longest[retry];
      }
      // 200 uniform draws: the longest lies in the top half of the range but with odds 2^-200.
      assertThat(longest[retry]).isGreaterThan(ceiling.dividedBy(2));
    }
  }

  @Test
  void aPolicyWithoutRetriesLeftGivesNoDelay() {
    RetryPolicy<Object> three =
        Retries.remoteCall(3, Duration.ofSeconds(1), Duration.ofMinutes(2)).build();
    assertThat(Retries.delayAfter(three, 1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(Retries.delayAfter(three, 2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(Retries.delayAfter(three, 3)).isZero();
  }

  @Test
  void requeueVariesByAFifthEitherWay() {
    RetryPolicy<Object> requeue =
        Retries.requeue(Duration.ofSeconds(1), Duration.ofMinutes(5)).build();
    for (int i = 0; i < 100; i++) {
      assertThat(Retries.delayAfter(requeue, 1))
          .isBetween(Duration.ofMillis(800), Duration.ofMillis(1200));
      assertThat(Retries.delayAfter(requeue, 3))
          .isBetween(Duration.ofMillis(3200), Duration.ofMillis(4800));
      assertThat(Retries.delayAfter(requeue, 40))
          .isBetween(Duration.ofMinutes(4), Duration.ofMinutes(6));
    }
  }

  @Test
  void equalBoundsMeanAFixedDelay() {
    RetryPolicy<Object> fixed =
        Retries.reconnect(Duration.ofMillis(50), Duration.ofMillis(50)).build();
    assertThat(Retries.delayAfter(fixed, 1)).isEqualTo(Duration.ofMillis(50));
    assertThat(Retries.delayAfter(fixed, 9)).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void theBreakerOpensAfterTheThresholdAndProbesOnce() {
    CircuitBreaker<Object> breaker = Retries.breaker(3, Duration.ofMinutes(5));
    breaker.recordFailure();
    breaker.recordFailure();
    assertThat(breaker.isClosed()).isTrue();
    breaker.recordFailure();
    assertThat(breaker.tryAcquirePermit()).isFalse();
    breaker.halfOpen(); // what the end of the 5 minutes does
    assertThat(breaker.tryAcquirePermit()).isTrue();
    assertThat(breaker.tryAcquirePermit()).isFalse();
    breaker.recordSuccess();
    assertThat(breaker.isClosed()).isTrue();
  }

  @Test
  void nonsenseBoundsAreRefused() {
    assertThatThrownBy(() -> Retries.reconnect(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Retries.reconnect(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Retries.breaker(0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
