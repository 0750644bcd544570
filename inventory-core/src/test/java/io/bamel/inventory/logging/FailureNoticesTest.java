package io.bamel.inventory.logging;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.logging.FailureNotices.Kind;
import io.bamel.inventory.logging.FailureNotices.Notice;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FailureNoticesTest {

  private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");

  /**
   * One step of a table: at minute {@code minute}, subject {@code subject} failed with {@code
   * cause} (null: succeeded); the expected kind and suppressed count.
   */
  record Step(double minute, String subject, String cause, Kind kind, long suppressed) {}

  static Step fail(double minute, String cause, Kind kind, long suppressed) {
    return new Step(minute, "r1-u07", cause, kind, suppressed);
  }

  static Step ok(double minute, Kind kind, long suppressed) {
    return new Step(minute, "r1-u07", null, kind, suppressed);
  }

  static Stream<Arguments> tables() {
    return Stream.of(
        Arguments.of(
            "first failure warns, repeats are suppressed and counted",
            List.of(
                fail(0, "UNREACHABLE", Kind.WARN, 0),
                fail(0.5, "UNREACHABLE", Kind.SUPPRESS, 1),
                fail(1, "UNREACHABLE", Kind.SUPPRESS, 2),
                fail(14.9, "UNREACHABLE", Kind.SUPPRESS, 3))),
        Arguments.of(
            "a persisting cause warns again every interval with the count, then counts afresh",
            List.of(
                fail(0, "TLS", Kind.WARN, 0),
                fail(5, "TLS", Kind.SUPPRESS, 1),
                fail(10, "TLS", Kind.SUPPRESS, 2),
                fail(15, "TLS", Kind.REPEAT, 2),
                fail(20, "TLS", Kind.SUPPRESS, 1),
                fail(30, "TLS", Kind.REPEAT, 1))),
        Arguments.of(
            "a new cause warns at once",
            List.of(
                fail(0, "UNREACHABLE", Kind.WARN, 0),
                fail(1, "UNREACHABLE", Kind.SUPPRESS, 1),
                fail(2, "BAD_CREDENTIALS", Kind.WARN, 0),
                fail(3, "BAD_CREDENTIALS", Kind.SUPPRESS, 1),
                fail(4, "UNREACHABLE", Kind.WARN, 0))),
        Arguments.of(
            "recovery is one notice with what was suppressed, then silence",
            List.of(
                fail(0, "NOT_ALLOWED", Kind.WARN, 0),
                fail(1, "NOT_ALLOWED", Kind.SUPPRESS, 1),
                fail(2, "NOT_ALLOWED", Kind.SUPPRESS, 2),
                ok(3, Kind.RECOVER, 2),
                ok(4, Kind.NONE, 0),
                fail(5, "NOT_ALLOWED", Kind.WARN, 0))),
        Arguments.of(
            "success without a failure logs nothing",
            List.of(ok(0, Kind.NONE, 0), ok(1, Kind.NONE, 0))),
        Arguments.of(
            "subjects are independent",
            List.of(
                new Step(0, "a", "TIMEOUT", Kind.WARN, 0),
                new Step(0, "b", "TIMEOUT", Kind.WARN, 0),
                new Step(1, "a", "TIMEOUT", Kind.SUPPRESS, 1),
                new Step(2, "b", null, Kind.RECOVER, 0),
                new Step(3, "a", "TIMEOUT", Kind.SUPPRESS, 2),
                new Step(4, "b", "TIMEOUT", Kind.WARN, 0))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tables")
  void decidesAsTheTableSays(String name, List<Step> steps) {
    FailureNotices notices = new FailureNotices(Duration.ofMinutes(15), 100);
    List<String> got = new ArrayList<>();
    List<String> want = new ArrayList<>();
    for (Step s : steps) {
      Instant at = T0.plusMillis((long) (s.minute() * 60_000));
      Notice n =
          s.cause() == null
              ? notices.recovered(s.subject(), at)
              : notices.failed(s.subject(), s.cause(), at);
      long count = n.kind() == Kind.WARN || n.kind() == Kind.NONE ? 0 : n.suppressed();
      got.add(s.minute() + " " + s.subject() + " " + n.kind() + " " + count);
      want.add(s.minute() + " " + s.subject() + " " + s.kind() + " " + s.suppressed());
    }
    assertThat(got).containsExactlyElementsOf(want);
  }

  @Test
  void noticesSayHowLongAndWhatCameBefore() {
    FailureNotices notices = new FailureNotices(Duration.ofMinutes(15), 100);
    notices.failed("n", "UNREACHABLE", T0);
    Notice changed = notices.failed("n", "TLS", T0.plusSeconds(60));
    assertThat(changed.previousCause()).isEqualTo("UNREACHABLE");
    Notice repeat = notices.failed("n", "TLS", T0.plusSeconds(60 + 15 * 60));
    assertThat(repeat.failingFor()).isEqualTo(Duration.ofMinutes(15));
    Notice recovered = notices.recovered("n", T0.plusSeconds(60 + 20 * 60));
    assertThat(recovered.cause()).isEqualTo("TLS");
    assertThat(recovered.failingFor()).isEqualTo(Duration.ofMinutes(20));
    assertThat(recovered.logged()).isTrue();
  }

  @Test
  void memoryHoldsFailingSubjectsOnlyAndIsBoundedAtAHundredThousand() {
    FailureNotices notices = new FailureNotices();
    for (int i = 0; i < 100_000; i++) {
      notices.failed("node-" + i, "UNREACHABLE", T0);
    }
    assertThat(notices.size()).isEqualTo(100_000);
    notices.failed("node-100000", "UNREACHABLE", T0.plusSeconds(1));
    assertThat(notices.size()).isEqualTo(100_000);
    assertThat(notices.isFailing("node-0")).as("the oldest failure is forgotten").isFalse();
    assertThat(notices.failed("node-0", "UNREACHABLE", T0.plusSeconds(2)).kind())
        .isEqualTo(Kind.WARN);
    for (int i = 0; i <= 100_000; i++) {
      notices.recovered("node-" + i, T0.plusSeconds(3));
    }
    assertThat(notices.size()).isZero();
  }

  @Test
  void forgettingASubjectLogsNothingAndStartsAfresh() {
    FailureNotices notices = new FailureNotices(Duration.ofMinutes(15), 10);
    notices.failed("n", "UNREACHABLE", T0);
    notices.forget("n");
    assertThat(notices.size()).isZero();
    assertThat(notices.recovered("n", T0.plusSeconds(1)).kind()).isEqualTo(Kind.NONE);
    assertThat(notices.failed("n", "UNREACHABLE", T0.plusSeconds(2)).kind()).isEqualTo(Kind.WARN);
  }
}
