package io.bamel.pool.history;

import io.bamel.pool.Resources;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a pool's demand (the requests of the pods it runs and of the pending pods it serves) was at
 * each hour of the week, learned from the pool controller's observations, so that capacity can be
 * on its way before a demand that comes back every day or week arrives. Immutable, pure,
 * deterministic and thread-safe; bounded in size whatever the length of the run.
 *
 * <p><b>What is kept.</b> 168 hour-of-week buckets (bucket 0 is Monday 00:00 to 01:00 UTC; UTC, so
 * no daylight-saving hour is doubled or lost), each holding, per resource, the decayed peak of that
 * hour, and the hour it was last learned. Beside them, the <i>open hour</i>: the hour being
 * observed and its running peak. An observation of a later hour closes the open hour, which is
 * folded into its bucket; hours without any observation (the controller down, Kubernetes
 * unreadable) are not folded at all: no data is not zero demand. An observation of an earlier hour
 * (the clock stepped back) is ignored; one more than a week before the open hour means the open
 * hour came from a clock that was wrong: the open hour and every bucket learned after the new time
 * are dropped. An observation dated before 1970 or after 9999 is ignored.
 *
 * <p><b>How a bucket learns: a max with decay, up at once, down by half.</b> A closed hour's peak
 * {@code p} replaces a bucket's value {@code b} when {@code p >= b}; otherwise the bucket moves
 * half-way down, {@code (b + p) / 2}, and the {@value #FORGET_AFTER_LOWER}th lower peak in a row
 * replaces it. Up at once because a peak missed costs pods a server's boot (minutes of waiting),
 * while a peak over-estimated costs the energy of the servers switched on early for an hour. Down
 * by half rather than at once because one quiet day (a holiday) should not erase a weekly pattern;
 * a pattern gone keeps half its excess after one week, a quarter after two, an eighth after three,
 * nothing after four (halving alone would never reach zero). A plain EWMA would average the peaks,
 * so about half the days would exceed it; a max without decay would never forget a one-off spike. A
 * bucket not learned for {@value #FORGET_AFTER_DAYS} days is forgotten: it no longer predicts, and
 * the next closed hour replaces it.
 *
 * <p><b>What it predicts.</b> {@link #expectedPeak} is, per resource, the highest value of the
 * buckets of the hours the window touches; for an hour whose own bucket is not learned (the first
 * week), the highest of the same hour of day on the other days learned. So a daily swing is
 * predicted from the second day on, and a weekly one (a quiet seventh day) from the second week on.
 *
 * <p>Amounts are rounded up to {@value #SIGNIFICANT_DIGITS} significant digits when observed
 * (compact JSON, and a peak is never rounded below what was seen). At most {@value #MAX_RESOURCES}
 * resource names are kept (the first seen, in name order within one observation); names that are
 * not Kubernetes-style resource names and amounts that are not finite are ignored. The JSON form is
 * {@link HistoryJson}'s.
 */
public final class DemandHistory {

  /** The buckets: one per hour of the week. */
  public static final int HOURS_PER_WEEK = 168;

  /** The most resource names kept. */
  public static final int MAX_RESOURCES = 16;

  /** A bucket not learned for this many days no longer predicts. */
  public static final int FORGET_AFTER_DAYS = 35;

  /** The lower peaks in a row that replace a bucket's value. */
  public static final int FORGET_AFTER_LOWER = 4;

  /** Amounts are rounded up to this many significant digits. */
  public static final int SIGNIFICANT_DIGITS = 4;

  /** What a resource name may be (Kubernetes resource names: {@code nvidia.com/gpu}, ...). */
  static final Pattern RESOURCE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/-]{0,252}");

  /** No open hour. */
  static final long NO_HOUR = Long.MIN_VALUE;

  /** 9999-12-31T23:00Z in hours since the epoch: later is not a time observed. */
  static final long MAX_EPOCH_HOUR = Instant.parse("9999-12-31T23:00:00Z").getEpochSecond() / 3600;

  private static final long FORGET_HOURS = FORGET_AFTER_DAYS * 24L;

  /** Epoch hour 0 (1970-01-01, a Thursday) is hour 72 of a week starting on Monday. */
  private static final long EPOCH_HOUR_OF_WEEK = 72;

  private static final MathContext UP = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.CEILING);
  private static final MathContext DOWN = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.FLOOR);

  private static final DemandHistory EMPTY =
      new DemandHistory(
          List.of(),
          new double[0][],
          new long[HOURS_PER_WEEK],
          new int[HOURS_PER_WEEK],
          NO_HOUR,
          Map.of());

  /** Resource names, sorted; at most {@link #MAX_RESOURCES}. */
  private final List<String> names;

  /**
   * Per name (same index as {@link #names}), per hour of week: the bucket's peak. Never written.
   */
  private final double[][] peaks;

  /** Per hour of week: the epoch hour last folded into the bucket, 0 for never. Never written. */
  private final long[] learnedAt;

  /** Per hour of week: how many peaks in a row were below the bucket's. Never written. */
  private final int[] lowerInARow;

  /** The epoch hour being observed, or {@link #NO_HOUR}. */
  private final long openHour;

  /** The open hour's running peak, by name (names among {@link #names}). */
  private final Map<String, Double> openPeak;

  private DemandHistory(
      List<String> names,
      double[][] peaks,
      long[] learnedAt,
      int[] lowerInARow,
      long openHour,
      Map<String, Double> openPeak) {
    this.names = names;
    this.peaks = peaks;
    this.learnedAt = learnedAt;
    this.lowerInARow = lowerInARow;
    this.openHour = openHour;
    this.openPeak = openPeak;
  }

  /** Nothing observed. */
  public static DemandHistory empty() {
    return EMPTY;
  }

  /**
   * This history with one more observation of the pool's requested resources (the requests of the
   * pods running on its members plus those of the pending pods it serves), made at {@code at}.
   * Returns this history when the observation changes nothing (or is ignored: see the class
   * comment).
   */
  public DemandHistory observe(Instant at, Resources requested) {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(requested, "requested");
    long hour = Math.floorDiv(at.getEpochSecond(), 3600);
    if (hour <= 0 || hour > MAX_EPOCH_HOUR) {
      return this; // a clock outside 1970 to 9999 is not observed
    }
    Map<String, Double> sample = sample(requested, hour == openHour);
    if (openHour != NO_HOUR && hour == openHour) {
      if (sample.isEmpty()) {
        return this; // nothing above the open peak
      }
      DemandHistory named = withNames(sample.keySet());
      Map<String, Double> peak = maxOf(openPeak, named.known(sample));
      return peak == openPeak
          ? this
          : new DemandHistory(named.names, named.peaks, learnedAt, lowerInARow, hour, peak);
    }
    if (openHour != NO_HOUR && hour < openHour) {
      if (openHour - hour <= HOURS_PER_WEEK) {
        return this; // the clock stepped back: ignored
      }
      return forgetAfter(hour).opened(hour, sample);
    }
    DemandHistory closed = openHour == NO_HOUR ? this : fold(openHour, openPeak);
    return closed.opened(hour, sample);
  }

  /**
   * The learned peak demand over {@code [from, from + horizon]}: per resource, the highest value of
   * the buckets of the hours that window touches (for an hour not learned yet, of the same hour of
   * day on the days learned); {@link Resources#NONE} when nothing is learned for those hours yet
   * (or what was learned is zero). The open hour's running peak is not a prediction and does not
   * count.
   *
   * @param from the start of the window (the decision's time)
   * @param horizon how far ahead (a server's boot time, say); not negative
   */
  public Resources expectedPeak(Instant from, Duration horizon) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(horizon, "horizon");
    if (horizon.isNegative()) {
      throw new IllegalArgumentException("the horizon must not be negative, not " + horizon);
    }
    long first = Math.floorDiv(from.getEpochSecond(), 3600);
    long span = Math.min(horizon.getSeconds(), HOURS_PER_WEEK * 3600L);
    long last = Math.floorDiv(from.getEpochSecond() + span, 3600);
    int hours = (int) Math.min(last - first + 1, HOURS_PER_WEEK);
    double[] max = new double[names.size()];
    for (int k = 0; k < hours; k++) {
      int bucket = hourOfWeek(first + k);
      if (fresh(bucket, first)) {
        raise(max, bucket);
        continue;
      }
      for (int day = 1; day < 7; day++) {
        int other = (bucket + 24 * day) % HOURS_PER_WEEK;
        if (fresh(other, first)) {
          raise(max, other);
        }
      }
    }
    Map<String, Double> out = new HashMap<>();
    for (int i = 0; i < max.length; i++) {
      if (max[i] > 0) {
        out.put(names.get(i), max[i]);
      }
    }
    return out.isEmpty() ? Resources.NONE : new Resources(out);
  }

  /**
   * The start of the last hour folded into the buckets, or null when none was: it changes exactly
   * when an hour closes, so a writer keeping this history stores it when it differs from the value
   * it last stored.
   */
  public Instant learnedThrough() {
    long max = 0;
    for (long h : learnedAt) {
      max = Math.max(max, h);
    }
    return max == 0 ? null : Instant.ofEpochSecond(max * 3600);
  }

  /** The start of the hour being observed, or null before the first observation. */
  public Instant openHour() {
    return openHour == NO_HOUR ? null : Instant.ofEpochSecond(openHour * 3600);
  }

  /** How many hour-of-week buckets hold something learned (0 to {@value #HOURS_PER_WEEK}). */
  public int learnedHours() {
    int n = 0;
    for (long h : learnedAt) {
      if (h != 0) {
        n++;
      }
    }
    return n;
  }

  /** The hour of the week of epoch hour {@code hour}: 0 is Monday 00:00 UTC. */
  static int hourOfWeek(long hour) {
    return (int) Math.floorMod(hour + EPOCH_HOUR_OF_WEEK, (long) HOURS_PER_WEEK);
  }

  /** {@code amount} rounded up to {@value #SIGNIFICANT_DIGITS} significant digits. */
  static double roundUp(double amount) {
    return amount == 0 ? 0 : BigDecimal.valueOf(amount).round(UP).doubleValue();
  }

  private static double roundDown(double amount) {
    return amount == 0 ? 0 : BigDecimal.valueOf(amount).round(DOWN).doubleValue();
  }

  // ------------------------------------------------------------- for HistoryJson

  /**
   * A history from its parts, checked by the caller ({@link HistoryJson}): names sorted and valid,
   * one row of {@value #HOURS_PER_WEEK} amounts per name, amounts finite and not negative.
   */
  static DemandHistory of(
      List<String> names,
      double[][] peaks,
      long[] learnedAt,
      int[] lowerInARow,
      long openHour,
      Map<String, Double> openPeak) {
    double[][] rows = new double[peaks.length][];
    for (int i = 0; i < peaks.length; i++) {
      rows[i] = new double[HOURS_PER_WEEK];
      for (int b = 0; b < HOURS_PER_WEEK; b++) {
        rows[i][b] = roundUp(peaks[i][b]);
      }
    }
    Map<String, Double> peak = new HashMap<>();
    openPeak.forEach((k, v) -> peak.put(k, roundUp(v)));
    peak.values().removeIf(v -> v == 0);
    return normalized(
        names,
        rows,
        learnedAt.clone(),
        lowerInARow.clone(),
        openHour,
        Collections.unmodifiableMap(peak));
  }

  List<String> names() {
    return names;
  }

  double peak(int name, int bucket) {
    return peaks[name][bucket];
  }

  long learnedAtHour(int bucket) {
    return learnedAt[bucket];
  }

  int lowerInARow(int bucket) {
    return lowerInARow[bucket];
  }

  long openEpochHour() {
    return openHour;
  }

  Map<String, Double> openPeak() {
    return openPeak;
  }

  // ------------------------------------------------------------- internals

  /** Whether {@code bucket} was learned, not after {@code hour} and not too long before it. */
  private boolean fresh(int bucket, long hour) {
    long learned = learnedAt[bucket];
    return learned != 0 && learned <= hour && hour - learned <= FORGET_HOURS;
  }

  private void raise(double[] max, int bucket) {
    for (int i = 0; i < max.length; i++) {
      max[i] = Math.max(max[i], peaks[i][bucket]);
    }
  }

  /**
   * The usable part of an observation: valid names, finite positive amounts, rounded up. Amounts
   * not above the open peak (the common case: a cycle every 15 s within the same hour) are left out
   * before any rounding, as they change nothing; a name already kept is not checked again.
   */
  private Map<String, Double> sample(Resources requested, boolean sameHour) {
    Map<String, Double> out = new HashMap<>();
    requested
        .amounts()
        .forEach(
            (name, amount) -> {
              if (amount == null || !Double.isFinite(amount) || !(amount > 0)) {
                return;
              }
              if (sameHour && amount <= openPeak.getOrDefault(name, 0.0)) {
                return;
              }
              if (names.contains(name) || RESOURCE_NAME.matcher(name).matches()) {
                out.put(name, roundUp(amount));
              }
            });
    return out;
  }

  private static Map<String, Double> maxOf(Map<String, Double> a, Map<String, Double> b) {
    Map<String, Double> out = new HashMap<>(a);
    b.forEach((k, v) -> out.merge(k, v, Math::max));
    return out.equals(a) ? a : Collections.unmodifiableMap(out);
  }

  /** This history observing {@code hour} from now on, with {@code sample} its peak so far. */
  private DemandHistory opened(long hour, Map<String, Double> sample) {
    DemandHistory named = withNames(sample.keySet());
    return new DemandHistory(
        named.names, named.peaks, named.learnedAt, named.lowerInARow, hour, named.known(sample));
  }

  /** The amounts of {@code sample} whose names this history keeps. */
  private Map<String, Double> known(Map<String, Double> sample) {
    Map<String, Double> out = new HashMap<>();
    sample.forEach(
        (k, v) -> {
          if (names.contains(k)) {
            out.put(k, v);
          }
        });
    return Collections.unmodifiableMap(out);
  }

  /** This history knowing {@code more} names too, as far as {@link #MAX_RESOURCES} allows. */
  private DemandHistory withNames(java.util.Set<String> more) {
    List<String> added = new ArrayList<>();
    for (String name : more.stream().sorted().toList()) {
      if (!names.contains(name) && names.size() + added.size() < MAX_RESOURCES) {
        added.add(name);
      }
    }
    if (added.isEmpty()) {
      return this;
    }
    List<String> all = new ArrayList<>(names);
    all.addAll(added);
    Collections.sort(all);
    double[][] rows = new double[all.size()][];
    for (int i = 0; i < all.size(); i++) {
      int old = names.indexOf(all.get(i));
      rows[i] = old >= 0 ? peaks[old] : new double[HOURS_PER_WEEK];
    }
    return new DemandHistory(List.copyOf(all), rows, learnedAt, lowerInARow, openHour, openPeak);
  }

  /** This history with {@code peak}, the peak of closed hour {@code hour}, learned. */
  private DemandHistory fold(long hour, Map<String, Double> peak) {
    int bucket = hourOfWeek(hour);
    boolean fresh = fresh(bucket, hour);
    boolean lower = false;
    for (int i = 0; i < names.size(); i++) {
      lower |= peak.getOrDefault(names.get(i), 0.0) < peaks[i][bucket];
    }
    int streak = fresh && lower ? lowerInARow[bucket] + 1 : 0;
    boolean replace = !fresh || streak >= FORGET_AFTER_LOWER;
    double[][] rows = new double[names.size()][];
    for (int i = 0; i < names.size(); i++) {
      rows[i] = peaks[i].clone();
      double p = peak.getOrDefault(names.get(i), 0.0);
      double b = rows[i][bucket];
      rows[i][bucket] = replace || p >= b ? p : Math.max(p, roundDown((b + p) / 2));
    }
    long[] learned = learnedAt.clone();
    learned[bucket] = hour;
    int[] lowers = lowerInARow.clone();
    lowers[bucket] = replace ? 0 : streak;
    return normalized(names, rows, learned, lowers, openHour, openPeak);
  }

  /** This history without its open hour and without the buckets learned after {@code hour}. */
  private DemandHistory forgetAfter(long hour) {
    long[] learned = learnedAt.clone();
    int[] lowers = lowerInARow.clone();
    double[][] rows = new double[names.size()][];
    for (int i = 0; i < names.size(); i++) {
      rows[i] = peaks[i].clone();
    }
    for (int b = 0; b < HOURS_PER_WEEK; b++) {
      if (learned[b] > hour) {
        learned[b] = 0;
        lowers[b] = 0;
        for (double[] row : rows) {
          row[b] = 0;
        }
      }
    }
    return normalized(names, rows, learned, lowers, NO_HOUR, Map.of());
  }

  /**
   * A history from these parts, without the names that hold nothing (every bucket 0, and not in the
   * open peak): a resource no longer asked for frees its place, and the JSON form, which leaves
   * such names out, reads back equal.
   */
  private static DemandHistory normalized(
      List<String> names,
      double[][] rows,
      long[] learned,
      int[] lowers,
      long openHour,
      Map<String, Double> openPeak) {
    List<String> kept = new ArrayList<>(names.size());
    List<double[]> keptRows = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      if (openPeak.containsKey(names.get(i)) || !allZero(rows[i])) {
        kept.add(names.get(i));
        keptRows.add(rows[i]);
      }
    }
    return new DemandHistory(
        List.copyOf(kept), keptRows.toArray(new double[0][]), learned, lowers, openHour, openPeak);
  }

  private static boolean allZero(double[] row) {
    for (double v : row) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DemandHistory h
        && openHour == h.openHour
        && names.equals(h.names)
        && Arrays.equals(learnedAt, h.learnedAt)
        && Arrays.equals(lowerInARow, h.lowerInARow)
        && Arrays.deepEquals(peaks, h.peaks)
        && openPeak.equals(h.openPeak);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        openHour,
        names,
        Arrays.hashCode(learnedAt),
        Arrays.hashCode(lowerInARow),
        Arrays.deepHashCode(peaks),
        openPeak);
  }

  @Override
  public String toString() {
    return "DemandHistory[learnedHours="
        + learnedHours()
        + ", learnedThrough="
        + learnedThrough()
        + ", openHour="
        + openHour()
        + ", openPeak="
        + openPeak
        + "]";
  }
}
