package io.bamel.inventory.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.leader.LeaseTracker.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lease decisions on a fake clock (seconds as nanoseconds): a 15 s lease with a 3 s margin,
 * retried every 0.5 s, granted for a request sent at 0 s.
 */
class LeaseTrackerTest {

  static final Duration TTL = Duration.ofSeconds(15);

  static long s(double seconds) {
    return (long) (seconds * 1e9);
  }

  static LeaseTracker granted() {
    LeaseTracker t = new LeaseTracker(TTL, Duration.ofSeconds(3), Duration.ofMillis(500));
    t.granted(0, 15);
    return t;
  }

  /**
   * One case, built with {@link #named}: the answers etcd gave after the grant (none unless told),
   * then the verdict and the second it is asked for.
   */
  static final class Case {
    private final String name;
    private List<Answer> answers = List.of();
    private double at;
    private Verdict verdict;

    private Case(String name) {
      this.name = name;
    }

    static Case named(String name) {
      return new Case(name);
    }

    Case after(Answer... answers) {
      this.answers = List.of(answers);
      return this;
    }

    Case heldAt(double seconds) {
      return is(Verdict.HELD, seconds);
    }

    Case unconfirmedAt(double seconds) {
      return is(Verdict.UNCONFIRMED, seconds);
    }

    Case goneAt(double seconds) {
      return is(Verdict.GONE, seconds);
    }

    private Case is(Verdict verdict, double seconds) {
      this.verdict = verdict;
      this.at = seconds;
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** What etcd answered the tracker (a renewal, a failure, the lease gone), told to it. */
  interface Answer {
    void tell(LeaseTracker t);
  }

  /** A renewal of 15 s sent at {@code sentAt}. */
  static Answer renewed(double sentAt) {
    return renewed(sentAt, 15);
  }

  /** A renewal granting {@code ttl} seconds, sent at {@code sentAt}. */
  static Answer renewed(double sentAt, long ttl) {
    return t -> t.renewed(s(sentAt), ttl);
  }

  /** A keep-alive that failed at {@code at} with {@code why}. */
  static Answer failed(double at, String why) {
    return t -> t.failed(s(at), why);
  }

  /** Keep-alives failing every half second from {@code from} until {@code until}. */
  static Answer failing(double from, double until) {
    return t -> {
      for (double at = from; at < until; at += 0.5) {
        t.failed(s(at), "UNAVAILABLE");
      }
    };
  }

  /** etcd saying at {@code at} that the lease is gone. */
  static Answer gone(double at) {
    return t -> t.gone(s(at));
  }

  static Stream<Case> cases() {
    return Stream.of(
        Case.named("just granted").heldAt(0.1),
        Case.named("granted, acted on until 3 s before expiry").heldAt(11.9),
        Case.named("granted, no renewal: stop 3 s before expiry").unconfirmedAt(12.0),
        Case.named("one keep-alive failed at once (a member died): still held")
            .after(failed(0.02, "UNAVAILABLE: io exception"))
            .heldAt(0.03),
        Case.named("keep-alives failing for 11 s, none answered yet: still held")
            .after(failing(5, 11))
            .heldAt(11.5),
        Case.named("failures, then a renewal sent at 5.5 s: held until 17.5 s")
            .after(failed(5, "UNAVAILABLE"), renewed(5.5))
            .heldAt(17.4),
        Case.named("renewal sent at 5.5 s: unconfirmed from 17.5 s")
            .after(renewed(5.5))
            .unconfirmedAt(17.5),
        Case.named("the expiry counts from the send, not the answer's arrival")
            .after(renewed(1))
            .unconfirmedAt(13.0),
        Case.named("an older answer arriving late does not shorten the expiry")
            .after(renewed(6), renewed(4))
            .heldAt(17.9),
        Case.named("a TTL above the requested one is not trusted")
            .after(renewed(1, 60))
            .unconfirmedAt(13.0),
        Case.named("etcd says it is gone").after(gone(2)).goneAt(2.0),
        Case.named("gone is final: a late renewal does not revive it")
            .after(gone(2), renewed(1.5))
            .goneAt(3.0),
        Case.named("unconfirmed after an outage, then confirmed again: held")
            .after(renewed(40))
            .heldAt(41.0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void verdicts(Case c) {
    LeaseTracker t = granted();
    c.answers.forEach(answer -> answer.tell(t));
    assertThat(t.verdict(s(c.at))).isEqualTo(c.verdict);
    assertThat(t.reason(s(c.at)).isEmpty()).isEqualTo(c.verdict == Verdict.HELD);
  }

  @Test
  void renewalsAreDueEveryThirdOfTheTtlAndSoonAfterAFailure() {
    LeaseTracker t = granted();
    assertThat(t.nextRenewalAt()).isEqualTo(s(5));
    t.renewed(s(5), 15);
    assertThat(t.nextRenewalAt()).isEqualTo(s(10));
    t.failed(s(10.1), "UNAVAILABLE");
    assertThat(t.nextRenewalAt()).isEqualTo(s(10.6));
    t.renewed(s(10.6), 15);
    assertThat(t.nextRenewalAt()).isEqualTo(s(15.6));
    assertThat(t.stepDownAt()).isEqualTo(s(22.6));
  }

  @Test
  void theReasonNamesWhatEtcdSaidAndTheMeasuredTimes() {
    LeaseTracker t = granted();
    t.renewed(s(5), 15);
    t.failed(s(16.5), "UNAVAILABLE: io exception");
    assertThat(t.reason(s(17)))
        .isEqualTo(
            "etcd has not confirmed the lease for 12.0 s (it lives at least 15.0 s past a"
                + " confirmed renewal; this process stops acting 3.0 s before that); last"
                + " keep-alive failure 0.5 s ago: UNAVAILABLE: io exception");
    t.gone(s(20.25));
    assertThat(t.reason(s(21)))
        .isEqualTo(
            "etcd says the lease is gone (revoked or expired), 15.3 s after its last confirmed"
                + " renewal");
  }

  @ParameterizedTest(name = "a TTL of {0}: margin {1}, retry {2}")
  @CsvSource({
    "PT15S, PT3S, PT0.5S",
    "PT60S, PT12S, PT0.5S",
    "PT2S, PT0.5S, PT0.2S",
    "PT1S, PT0.5S, PT0.1S"
  })
  void marginsAndRetriesFollowTheTtl(Duration ttl, Duration margin, Duration retry) {
    assertThat(LeaseTracker.marginFor(ttl)).isEqualTo(margin);
    assertThat(LeaseTracker.retryFor(ttl)).isEqualTo(retry);
  }

  @Test
  void aMarginNotBelowTheTtlIsRefused() {
    assertThatThrownBy(() -> new LeaseTracker(TTL, TTL, Duration.ofMillis(500)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
