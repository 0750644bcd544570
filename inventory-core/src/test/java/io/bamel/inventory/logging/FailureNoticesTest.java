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
import org.junit.jupiter.params.provider.MethodSource;

class FailureNoticesTest {

  private static final Instant T0 = Instant.parse("2026-11-25T12:00:00Z");

  /**
   * One step: at minute {@code minute}, {@code subject} failed with {@code cause} (null: it
   * succeeded); the kind of notice expected and the suppressed count it carries.
   */
  record Step(double minute, String subject, String cause, Kind kind, long suppressed) {}

  /**
   * A named sequence of steps, each named by the notice it must give; the subject is {@code r1-u07}
   * until {@link #on} names another.
   */
  static final class Story {
    private final String name;
    private final List<Step> steps = new ArrayList<>();
    private String subject = "r1-u07";

    private Story(String name) {
      this.name = name;
    }

    /** The following steps are about {@code subject}. */
    Story on(String subject) {
      this.subject = subject;
      return this;
    }

    /** A failure at {@code minute} that is warned of at once. */
    Story warns(double minute, String cause) {
      return step(minute, cause, Kind.WARN, 0);
    }

    /** A failure at {@code minute} that is suppressed, the {@code count}th so far. */
    Story suppresses(double minute, String cause, long count) {
      return step(minute, cause, Kind.SUPPRESS, count);
    }

    /** A failure at {@code minute} warned of again, with the {@code count} suppressed since. */
    Story repeats(double minute, String cause, long count) {
      return step(minute, cause, Kind.REPEAT, count);
    }

    /** A success at {@code minute} that ends a failure, with the {@code count} suppressed. */
    Story recovers(double minute, long count) {
      return step(minute, null, Kind.RECOVER, count);
    }

    /** A success at {@code minute} that says nothing. */
    Story quiet(double minute) {
      return step(minute, null, Kind.NONE, 0);
    }

    private Story step(double minute, String cause, Kind kind, long suppressed) {
      steps.add(new Step(minute, subject, cause, kind, suppressed));
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Story story(String name) {
    return new Story(name);
  }

  static Stream<Story> tables() {
    return Stream.of(
        story("first failure warns, repeats are suppressed and counted")
            .warns(0, "UNREACHABLE")
            .suppresses(0.5, "UNREACHABLE", 1)
            .suppresses(1, "UNREACHABLE", 2)
            .suppresses(14.9, "UNREACHABLE", 3),
        story("a persisting cause warns again every interval with the count, then counts afresh")
            .warns(0, "TLS")
            .suppresses(5, "TLS", 1)
            .suppresses(10, "TLS", 2)
            .repeats(15, "TLS", 2)
            .suppresses(20, "TLS", 1)
            .repeats(30, "TLS", 1),
        story("a new cause warns at once")
            .warns(0, "UNREACHABLE")
            .suppresses(1, "UNREACHABLE", 1)
            .warns(2, "BAD_CREDENTIALS")
            .suppresses(3, "BAD_CREDENTIALS", 1)
            .warns(4, "UNREACHABLE"),
        story("recovery is one notice with what was suppressed, then silence")
            .warns(0, "NOT_ALLOWED")
            .suppresses(1, "NOT_ALLOWED", 1)
            .suppresses(2, "NOT_ALLOWED", 2)
            .recovers(3, 2)
            .quiet(4)
            .warns(5, "NOT_ALLOWED"),
        story("success without a failure logs nothing").quiet(0).quiet(1),
        story("subjects are independent")
            .on("a")
            .warns(0, "TIMEOUT")
            .on("b")
            .warns(0, "TIMEOUT")
            .on("a")
            .suppresses(1, "TIMEOUT", 1)
            .on("b")
            .recovers(2, 0)
            .on("a")
            .suppresses(3, "TIMEOUT", 2)
            .on("b")
            .warns(4, "TIMEOUT"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tables")
  void decidesAsTheTableSays(Story story) {
    FailureNotices notices = new FailureNotices(Duration.ofMinutes(15), 100);
    List<String> got = new ArrayList<>();
    List<String> want = new ArrayList<>();
    for (Step s : story.steps) {
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
