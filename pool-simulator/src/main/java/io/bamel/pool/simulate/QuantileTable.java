package io.bamel.pool.simulate;

import java.util.List;

/**
 * An inverse cumulative distribution given as (probability, value) points, interpolated linearly in
 * the logarithm of the value between points: a continuous distribution through the published
 * quantiles of a trace. Probabilities rise strictly from 0 to 1; values are positive and do not
 * fall.
 */
public record QuantileTable(List<Point> points) {

  /** One point: {@code value} is the {@code probability}-quantile. */
  public record Point(double probability, double value) {}

  public QuantileTable {
    points = List.copyOf(points);
    if (points.size() < 2
        || points.getFirst().probability() != 0
        || points.getLast().probability() != 1) {
      throw new IllegalArgumentException("a quantile table runs from probability 0 to 1");
    }
    for (int i = 0; i < points.size(); i++) {
      Point point = points.get(i);
      if (!(point.value() > 0)) {
        throw new IllegalArgumentException("quantile values must be positive: " + point);
      }
      if (i > 0) {
        Point before = points.get(i - 1);
        if (point.probability() <= before.probability() || point.value() < before.value()) {
          throw new IllegalArgumentException("quantiles out of order at " + point);
        }
      }
    }
  }

  /** Builds a table from pairs: probability, value, probability, value... */
  public static QuantileTable of(double... pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException("probability and value pairs expected");
    }
    Point[] points = new Point[pairs.length / 2];
    for (int i = 0; i < points.length; i++) {
      points[i] = new Point(pairs[2 * i], pairs[2 * i + 1]);
    }
    return new QuantileTable(List.of(points));
  }

  /** The {@code u}-quantile, {@code u} in [0, 1]. */
  public double quantile(double u) {
    if (!(u >= 0 && u <= 1)) {
      throw new IllegalArgumentException("probability outside [0, 1]: " + u);
    }
    for (int i = 1; i < points.size(); i++) {
      Point high = points.get(i);
      if (u <= high.probability()) {
        Point low = points.get(i - 1);
        double share = (u - low.probability()) / (high.probability() - low.probability());
        return Math.exp(
            Math.log(low.value()) + share * (Math.log(high.value()) - Math.log(low.value())));
      }
    }
    return points.getLast().value();
  }

  /** The mean of the distribution, exact for log-linear pieces. */
  public double mean() {
    double mean = 0;
    for (int i = 1; i < points.size(); i++) {
      Point low = points.get(i - 1);
      Point high = points.get(i);
      double width = high.probability() - low.probability();
      double ratio = Math.log(high.value() / low.value());
      double pieceMean = ratio == 0 ? low.value() : (high.value() - low.value()) / ratio;
      mean += width * pieceMean;
    }
    return mean;
  }
}
