package io.bamel.pool.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.pool.Resources;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The learning rules of {@link DemandHistory}, on a fake clock (plain instants). */
class DemandHistoryTest {

  /** A Monday, 00:00 UTC. */
  private static final Instant MONDAY = Instant.parse("2026-11-23T00:00:00Z");

  private static final Duration TEN_MINUTES = Duration.ofMinutes(10);

  /** Monday 09:00 UTC, the hour the weekly-learning tests observe. */
  private static final Instant NINE = Instant.parse("2026-11-23T09:00:00Z");

  /**
   * Observations of one demand, {@code demand(t)}, every {@code step}: {@link #over} feeds them to
   * a history from {@code from} (inclusive) for {@code length}.
   */
  private record Feed(Function<Instant, Resources> demand, Duration step) {

    /** {@code demand} every {@code step}. */
    static Feed of(Function<Instant, Resources> demand, Duration step) {
      return new Feed(demand, step);
    }

    /** An empty history fed from {@code from} for {@code length}. */
    DemandHistory over(Instant from, Duration length) {
      return onto(DemandHistory.empty(), from, length);
    }

    /** {@code h} fed from {@code from} for {@code length}. */
    DemandHistory onto(DemandHistory h, Instant from, Duration length) {
      Instant to = from.plus(length);
      for (Instant t = from; t.isBefore(to); t = t.plus(step)) {
        h = h.observe(t, demand.apply(t));
      }
      return h;
    }
  }

  /** {@code h} after the hour of {@code t} peaked at {@code peak} and closed (1 core after it). */
  private static DemandHistory hourPeaking(DemandHistory h, Instant t, Resources peak) {
    return h.observe(t, peak).observe(t.plusSeconds(3600), cpu(1));
  }

  private static int hourOfDay(Instant t) {
    return (int) ((t.getEpochSecond() / 3600) % 24);
  }

  /** 100 cores from 14:00 to 17:00, 25 otherwise. */
  private static Resources dailySwing(Instant t) {
    int h = hourOfDay(t);
    return Resources.of("cpu", h >= 14 && h < 17 ? 100 : 25, "memory", 64e9);
  }

  private static Resources cpu(double cores) {
    return Resources.of("cpu", cores);
  }

  /** The cores {@code h} expects at {@code t} itself (a horizon of zero). */
  private static double cpuPeak(DemandHistory h, Instant t) {
    return h.expectedPeak(t, Duration.ZERO).get("cpu");
  }

  private static Instant at(String day, String time) {
    return Instant.parse(day + "T" + time + "Z");
  }

  @Test
  void nothingLearnedPredictsNothing() {
    DemandHistory h = DemandHistory.empty();
    assertThat(h.expectedPeak(MONDAY, Duration.ofHours(5))).isEqualTo(Resources.NONE);
    // The open hour is being observed, not learned: still nothing.
    h = Feed.of(t -> cpu(40), Duration.ofSeconds(15)).onto(h, MONDAY, Duration.ofSeconds(3000));
    assertThat(h.learnedHours()).isZero();
    assertThat(h.learnedThrough()).isNull();
    assertThat(h.openHour()).isEqualTo(MONDAY);
    assertThat(h.expectedPeak(MONDAY.plusSeconds(3000), TEN_MINUTES)).isEqualTo(Resources.NONE);
  }

  @Test
  void aDailySwingIsPredictedFromTheSecondDay() {
    DemandHistory h =
        Feed.of(DemandHistoryTest::dailySwing, Duration.ofSeconds(15))
            .over(MONDAY, Duration.ofDays(1).plusSeconds(15));
    assertThat(h.learnedHours()).isEqualTo(24);
    assertThat(h.learnedThrough()).isEqualTo(at("2026-11-23", "23:00:00"));
    // Tuesday's own buckets are not learned yet: Monday's same hours stand in.
    assertThat(h.expectedPeak(at("2026-11-24", "13:50:00"), TEN_MINUTES))
        .as("10 minutes before the swing, the window reaches into it")
        .isEqualTo(Resources.of("cpu", 100, "memory", 64e9));
    assertThat(h.expectedPeak(at("2026-11-24", "13:30:00"), TEN_MINUTES))
        .isEqualTo(Resources.of("cpu", 25, "memory", 64e9));
    assertThat(cpuPeak(h, at("2026-11-24", "03:00:00"))).isEqualTo(25);
    // A horizon over the whole day sees the swing.
    assertThat(h.expectedPeak(at("2026-11-24", "00:00:00"), Duration.ofHours(23)).get("cpu"))
        .isEqualTo(100);
  }

  @Test
  void aQuietDayOfTheWeekIsPredictedFromTheSecondWeek() {
    // Sunday at 40 % of the other days.
    Function<Instant, Resources> weekly =
        t -> {
          boolean sunday = (t.getEpochSecond() / 86400 + 3) % 7 == 6;
          return cpu(sunday ? 40 : 100);
        };
    Feed everyFiveMinutes = Feed.of(weekly, Duration.ofMinutes(5));
    DemandHistory h = everyFiveMinutes.over(MONDAY, Duration.ofDays(6));
    Instant sunday = at("2026-11-29", "12:00:00");
    assertThat(h.expectedPeak(sunday, TEN_MINUTES).get("cpu"))
        .as("first week: Sunday not seen yet, the other days stand in")
        .isEqualTo(100);
    h = everyFiveMinutes.onto(h, MONDAY.plus(Duration.ofDays(6)), Duration.ofDays(2));
    assertThat(h.learnedHours()).isEqualTo(168);
    assertThat(h.expectedPeak(sunday.plus(Duration.ofDays(7)), TEN_MINUTES).get("cpu"))
        .isEqualTo(40);
    assertThat(h.expectedPeak(at("2026-12-07", "12:00:00"), TEN_MINUTES).get("cpu")).isEqualTo(100);
  }

  @Test
  void aHigherPeakIsLearnedAtOnceALowerOneByHalvesThenForgotten() {
    DemandHistory h = DemandHistory.empty();
    h = hourPeaking(h, NINE, cpu(50));
    assertThat(cpuPeak(h, NINE)).isEqualTo(50);
    // A week later, higher: learned at once.
    Instant week = NINE.plus(Duration.ofDays(7));
    h = hourPeaking(h, week, cpu(100));
    assertThat(cpuPeak(h, week)).isEqualTo(100);
    // Then the 09:00 peak is gone (10 cores): half the excess goes each week, all of it at the 4th.
    double[] expected = {55, 32.5, 21.25, 10};
    for (int w = 2; w < 6; w++) {
      Instant t = NINE.plus(Duration.ofDays(7L * w));
      h = hourPeaking(h, t, cpu(10));
      assertThat(cpuPeak(h, t)).as("week %d", w).isEqualTo(expected[w - 2]);
    }
    // A peak coming back once is learned at once again.
    Instant back = NINE.plus(Duration.ofDays(42));
    h = hourPeaking(h, back, cpu(90));
    assertThat(cpuPeak(h, back)).isEqualTo(90);
  }

  @Test
  void aResourceNoLongerAskedForIsForgottenAndFreesItsName() {
    DemandHistory h = DemandHistory.empty();
    h = hourPeaking(h, NINE, Resources.of("cpu", 8, "gpu", 4));
    assertThat(h.names()).containsExactly("cpu", "gpu");
    for (int w = 1; w <= DemandHistory.FORGET_AFTER_LOWER; w++) {
      Instant t = NINE.plus(Duration.ofDays(7L * w));
      h = hourPeaking(h, t, cpu(8));
    }
    assertThat(h.expectedPeak(NINE.plus(Duration.ofDays(35)), Duration.ZERO)).isEqualTo(cpu(8));
    assertThat(h.names()).containsExactly("cpu");
  }

  @Test
  void aBucketNotLearnedForFiveWeeksNoLongerPredicts() {
    DemandHistory h = hourPeaking(DemandHistory.empty(), NINE, cpu(70));
    assertThat(cpuPeak(h, NINE.plus(Duration.ofDays(35)))).isEqualTo(70);
    assertThat(h.expectedPeak(NINE.plus(Duration.ofDays(36)), Duration.ZERO))
        .isEqualTo(Resources.NONE);
    // The next closed 09:00 replaces it rather than decaying from it.
    h = hourPeaking(h, NINE.plus(Duration.ofDays(42)), cpu(20));
    assertThat(cpuPeak(h, NINE.plus(Duration.ofDays(42)))).isEqualTo(20);
  }

  @Test
  void hoursWithoutObservationsAreNotLearned() {
    Instant ten = at("2026-11-23", "10:00:00");
    DemandHistory h = Feed.of(t -> cpu(30), Duration.ofMinutes(1)).over(ten, Duration.ofHours(1));
    // Nothing from 11:00 to 14:05 (controller down): the next observation closes 10:00 only.
    h = h.observe(at("2026-11-23", "14:05:00"), cpu(5));
    assertThat(h.learnedHours()).isEqualTo(1);
    assertThat(h.learnedThrough()).isEqualTo(ten);
    assertThat(h.openHour()).isEqualTo(at("2026-11-23", "14:00:00"));
    assertThat(h.expectedPeak(at("2026-11-23", "12:00:00"), Duration.ZERO))
        .as("a gap is no data, not zero demand")
        .isEqualTo(Resources.NONE);
    assertThat(h.expectedPeak(at("2026-11-30", "10:00:00"), Duration.ZERO)).isEqualTo(cpu(30));
  }

  @Test
  void anObservationFromBeforeTheOpenHourIsIgnored() {
    Instant t = at("2026-11-23", "10:30:00");
    DemandHistory h = DemandHistory.empty().observe(t, cpu(5));
    DemandHistory back = h.observe(t.minus(Duration.ofMinutes(40)), cpu(500));
    assertThat(back).isSameAs(h);
    back = back.observe(t.minus(Duration.ofDays(3)), cpu(500));
    assertThat(back).isSameAs(h);
    // The open hour goes on; the ignored observation left no trace in it.
    h = h.observe(at("2026-11-23", "11:00:00"), cpu(7));
    assertThat(h.expectedPeak(at("2026-11-30", "10:00:00"), Duration.ZERO)).isEqualTo(cpu(5));
  }

  @Test
  void aClockThatWasAWeekAheadLosesWhatItLearnedInThatFuture() {
    Instant now = at("2026-11-23", "10:00:00");
    DemandHistory h = Feed.of(t -> cpu(30), Duration.ofMinutes(5)).over(now, Duration.ofHours(2));
    // The clock jumped a month ahead for two hours...
    Instant wrong = now.plus(Duration.ofDays(30));
    h = Feed.of(t -> cpu(999), Duration.ofMinutes(5)).onto(h, wrong, Duration.ofHours(2));
    assertThat(h.learnedHours()).isEqualTo(3);
    // ...and came back: what it learned in that future goes, what came before stays.
    h = h.observe(now.plusSeconds(7300), cpu(30));
    assertThat(h.learnedHours()).isEqualTo(2);
    assertThat(h.learnedThrough()).isEqualTo(now.plusSeconds(3600));
    assertThat(h.openHour()).isEqualTo(now.plusSeconds(7200));
    assertThat(h.expectedPeak(now.plus(Duration.ofDays(7)), Duration.ofMinutes(90)))
        .isEqualTo(cpu(30));
  }

  @Test
  void hoursAreUtcHoursAcrossDaylightSavingChanges() {
    // 2026-03-29: Europe moves its clocks at 01:00 UTC; 2026-03-08: the US at 07:00 UTC (10:00 in
    // New York). In UTC every day has 24 hours: 24 buckets, each with its own hour's peak.
    for (String day : new String[] {"2026-03-29", "2026-03-08", "2026-10-25", "2026-11-01"}) {
      Instant start = at(day, "00:00:00");
      DemandHistory h =
          Feed.of(t -> cpu(1 + hourOfDay(t)), Duration.ofMinutes(15))
              .over(start, Duration.ofDays(1).plusSeconds(1));
      assertThat(h.learnedHours()).as(day).isEqualTo(24);
      for (int hour = 0; hour < 24; hour++) {
        assertThat(
                h.expectedPeak(
                        start.plus(Duration.ofDays(7)).plusSeconds(hour * 3600L), Duration.ZERO)
                    .get("cpu"))
            .as("%s %02d:00 UTC", day, hour)
            .isEqualTo(1 + hour);
      }
    }
    assertThat(DemandHistory.hourOfWeek(MONDAY.getEpochSecond() / 3600)).isZero();
    assertThat(DemandHistory.hourOfWeek(at("2026-11-29", "23:00:00").getEpochSecond() / 3600))
        .isEqualTo(167);
  }

  @Test
  void aYearOfObservationsStaysBounded() {
    // A year, every 15 minutes, a daily swing and a new custom resource name every week.
    Function<Instant, Resources> demand =
        t -> {
          Map<String, Double> m = new HashMap<>(dailySwing(t).amounts());
          m.put("gpu", 2.0);
          m.put("example.com/dev-" + t.getEpochSecond() / (7 * 86400), 1.0);
          return new Resources(m);
        };
    DemandHistory h = Feed.of(demand, Duration.ofMinutes(15)).over(MONDAY, Duration.ofDays(365));
    assertThat(h.learnedHours()).isEqualTo(DemandHistory.HOURS_PER_WEEK);
    assertThat(h.names().size()).isLessThanOrEqualTo(DemandHistory.MAX_RESOURCES);
    assertThat(h.names()).contains("cpu", "memory", "gpu");
    byte[] json = HistoryJson.write(h);
    assertThat(json.length).isLessThanOrEqualTo(HistoryJson.MAX_BYTES);
    assertThat(HistoryJson.read(json)).isEqualTo(h);
    // Without the weekly names: cpu, memory and gpu for a whole week in a few kilobytes.
    DemandHistory plain =
        Feed.of(t -> dailySwing(t).plus(Resources.of("gpu", 2)), Duration.ofMinutes(15))
            .over(MONDAY, Duration.ofDays(365));
    assertThat(HistoryJson.write(plain).length).isBetween(2000, 8000);
  }

  @Test
  void observationsAreRoundedUpAndOddAmountsIgnored() {
    Map<String, Double> odd = new HashMap<>();
    odd.put("cpu", 12.34567);
    odd.put("memory", Double.POSITIVE_INFINITY);
    odd.put("bad name!", 3.0);
    Instant t = at("2026-11-23", "08:10:00");
    DemandHistory h = hourPeaking(DemandHistory.empty(), t, new Resources(odd));
    assertThat(h.expectedPeak(t, Duration.ZERO)).isEqualTo(cpu(12.35));
    assertThat(h.names()).containsExactly("cpu");
    assertThatThrownBy(() -> h.expectedPeak(t, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("horizon");
  }

  @Test
  void atMostSixteenResourceNamesAreKept() {
    Map<String, Double> many = new HashMap<>();
    for (int i = 0; i < 20; i++) {
      many.put(String.format("r%02d", i), 1.0);
    }
    Instant t = at("2026-11-23", "08:00:00");
    DemandHistory h = DemandHistory.empty().observe(t, new Resources(many));
    assertThat(h.names()).hasSize(16).first().isEqualTo("r00");
    assertThat(h.names()).last().isEqualTo("r15");
  }

  @Test
  void immutableAndDeterministic() {
    Feed swing = Feed.of(DemandHistoryTest::dailySwing, Duration.ofMinutes(7));
    DemandHistory a = swing.over(MONDAY, Duration.ofDays(9));
    DemandHistory b = swing.over(MONDAY, Duration.ofDays(9));
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(HistoryJson.write(a)).isEqualTo(HistoryJson.write(b));
    byte[] before = HistoryJson.write(a);
    DemandHistory c = a.observe(MONDAY.plus(Duration.ofDays(12)), cpu(1000));
    assertThat(c).isNotEqualTo(a);
    assertThat(HistoryJson.write(a))
        .as("observing leaves the original as it was")
        .isEqualTo(before);
    assertThat(a.observe(a.openHour(), Resources.NONE)).as("nothing new: the same").isSameAs(a);
  }
}
