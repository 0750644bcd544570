package io.bamel.inventory.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.leader.LeaseTracker.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
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

  record Case(String name, Consumer<LeaseTracker> answers, double at, Verdict verdict) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    return Stream.of(
            new Case("just granted", t -> {}, 0.1, Verdict.HELD),
            new Case("granted, acted on until 3 s before expiry", t -> {}, 11.9, Verdict.HELD),
            new Case(
                "granted, no renewal: stop 3 s before expiry", t -> {}, 12.0, Verdict.UNCONFIRMED),
            new Case(
                "one keep-alive failed at once (a member died): still held",
                t -> t.failed(s(0.02), "UNAVAILABLE: io exception"),
                0.03,
                Verdict.HELD),
            new Case(
                "keep-alives failing for 11 s, none answered yet: still held",
                t -> {
                  for (double at = 5; at < 11; at += 0.5) {
                    t.failed(s(at), "UNAVAILABLE");
                  }
                },
                11.5,
                Verdict.HELD),
            new Case(
                "failures, then a renewal sent at 5.5 s: held until 17.5 s",
                t -> {
                  t.failed(s(5), "UNAVAILABLE");
                  t.renewed(s(5.5), 15);
                },
                17.4,
                Verdict.HELD),
            new Case(
                "renewal sent at 5.5 s: unconfirmed from 17.5 s",
                t -> t.renewed(s(5.5), 15),
                17.5,
                Verdict.UNCONFIRMED),
            new Case(
                "the expiry counts from the send, not the answer's arrival",
                t -> t.renewed(s(1), 15),
                13.0,
                Verdict.UNCONFIRMED),
            new Case(
                "an older answer arriving late does not shorten the expiry",
                t -> {
                  t.renewed(s(6), 15);
                  t.renewed(s(4), 15);
                },
                17.9,
                Verdict.HELD),
            new Case(
                "a TTL above the requested one is not trusted",
                t -> t.renewed(s(1), 60),
                13.0,
                Verdict.UNCONFIRMED),
            new Case("etcd says it is gone", t -> t.gone(s(2)), 2.0, Verdict.GONE),
            new Case(
                "gone is final: a late renewal does not revive it",
                t -> {
                  t.gone(s(2));
                  t.renewed(s(1.5), 15);
                },
                3.0,
                Verdict.GONE),
            new Case(
                "unconfirmed after an outage, then confirmed again: held",
                t -> t.renewed(s(40), 15),
                41.0,
                Verdict.HELD))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void verdicts(Case c) {
    LeaseTracker t = granted();
    c.answers().accept(t);
    assertThat(t.verdict(s(c.at()))).isEqualTo(c.verdict());
    assertThat(t.reason(s(c.at())).isEmpty()).isEqualTo(c.verdict() == Verdict.HELD);
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

  @Test
  void marginsAndRetriesFollowTheTtl() {
    record Row(Duration ttl, Duration margin, Duration retry) {}
    for (Row r :
        List.of(
            new Row(Duration.ofSeconds(15), Duration.ofSeconds(3), Duration.ofMillis(500)),
            new Row(Duration.ofSeconds(60), Duration.ofSeconds(12), Duration.ofMillis(500)),
            new Row(Duration.ofSeconds(2), Duration.ofMillis(500), Duration.ofMillis(200)),
            new Row(Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofMillis(100)))) {
      assertThat(LeaseTracker.marginFor(r.ttl())).as("margin of %s", r.ttl()).isEqualTo(r.margin());
      assertThat(LeaseTracker.retryFor(r.ttl())).as("retry of %s", r.ttl()).isEqualTo(r.retry());
    }
  }

  @Test
  void aMarginNotBelowTheTtlIsRefused() {
    assertThatThrownBy(() -> new LeaseTracker(TTL, TTL, Duration.ofMillis(500)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
