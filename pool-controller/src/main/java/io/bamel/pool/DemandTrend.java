package io.bamel.pool;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The recent history of what a pool's pods ask for ({@link PoolSnapshot#demandNow}: the requests of
 * the pods on its members plus those of its pending pods), one sample per cycle whose cluster view
 * is known, and the rate at which it changes. Pure and immutable: {@link #observe} returns a new
 * trend. The pool controller keeps it in its memory of the pool between cycles (not in etcd: a new
 * leader starts with an empty window), so that the policy can switch a node on while the demand is
 * rising, one power-on-to-Ready time before the pods would pend.
 *
 * @param samples the samples, oldest first
 */
public record DemandTrend(List<Sample> samples) {

  /** No samples. */
  public static final DemandTrend EMPTY = new DemandTrend(List.of());

  /**
   * One observation.
   *
   * @param at when
   * @param demand what the pool's pods asked for then
   */
  public record Sample(Instant at, Resources demand) {}

  /** Copies the list. */
  public DemandTrend {
    samples = List.copyOf(samples);
  }

  /**
   * This trend with {@code demand} observed at {@code at}, keeping the samples of the last {@code
   * window} (none when the window is zero: the trend is off). Samples at or after {@code at} are
   * dropped (a clock that went back starts the window again from there).
   */
  public DemandTrend observe(Instant at, Resources demand, Duration window) {
    if (window.isZero() || window.isNegative()) {
      return EMPTY;
    }
    Instant oldest = at.minus(window);
    List<Sample> kept = new ArrayList<>(samples.size() + 1);
    for (Sample s : samples) {
      if (!s.at().isBefore(oldest) && s.at().isBefore(at)) {
        kept.add(s);
      }
    }
    kept.add(new Sample(at, demand));
    return new DemandTrend(kept);
  }

  /**
   * The rate per second at which each rising resource grows over the samples (least-squares slope;
   * a resource that holds or falls is absent), or {@link Resources#NONE} with fewer than two
   * samples or when they span less than {@code minSpan}.
   */
  public Resources risePerSecond(Duration minSpan) {
    if (samples.size() < 2) {
      return Resources.NONE;
    }
    Instant first = samples.get(0).at();
    double span = seconds(first, samples.get(samples.size() - 1).at());
    if (span <= 0 || span < minSpan.toMillis() / 1000.0) {
      return Resources.NONE;
    }
    Set<String> names = new HashSet<>();
    samples.forEach(s -> names.addAll(s.demand().amounts().keySet()));
    double n = samples.size();
    double meanT = 0;
    for (Sample s : samples) {
      meanT += seconds(first, s.at());
    }
    meanT /= n;
    double varT = 0;
    for (Sample s : samples) {
      double d = seconds(first, s.at()) - meanT;
      varT += d * d;
    }
    Resources.Sum out = new Resources.Sum();
    for (String r : names) {
      double meanY = 0;
      for (Sample s : samples) {
        meanY += s.demand().get(r);
      }
      meanY /= n;
      double cov = 0;
      for (Sample s : samples) {
        cov += (seconds(first, s.at()) - meanT) * (s.demand().get(r) - meanY);
      }
      out.add(r, cov / varT);
    }
    return out.build();
  }

  /**
   * The demand expected {@code ahead} from the newest sample: the newest demand plus each rising
   * resource's rise over {@code ahead} at its rate ({@link #risePerSecond}); a falling demand is
   * not projected down (the policy scales down on what is, not on what may come). {@link
   * Resources#NONE} without samples.
   */
  public Resources projected(Duration ahead, Duration minSpan) {
    if (samples.isEmpty()) {
      return Resources.NONE;
    }
    Resources now = samples.get(samples.size() - 1).demand();
    Resources rise = risePerSecond(minSpan);
    double seconds = ahead.toMillis() / 1000.0;
    Resources.Sum out = new Resources.Sum();
    now.amounts().forEach(out::add);
    rise.amounts().forEach((r, v) -> out.add(r, v * seconds));
    return out.build();
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0;
  }
}
