package io.bamel.pool.simulate;

import java.util.Locale;

/**
 * The picture of a {@link Comparison}, as a self-contained SVG written by hand: one chart per
 * policy, stacked, sharing the time axis and one vertical axis, each with four lines: CPU requested
 * (cores), powered capacity (cores), Ready capacity (cores) and pods waiting (a count, on the same
 * axis). Each line shows the highest value of every pixel's span of time, so no short peak is lost.
 */
public final class ReportSvg {

  static final int WIDTH = 960;
  static final int CHART_HEIGHT = 200;
  static final int LEFT = 70;
  static final int RIGHT = 20;
  static final int TOP = 40;
  static final int GAP = 50;

  /** The lines, in drawing order: label, colour. */
  static final String[][] LINES = {
    {"powered capacity (cores)", "#e69f00"},
    {"Ready capacity (cores)", "#009e73"},
    {"CPU requested (cores)", "#000000"},
    {"pods waiting", "#d55e00"}
  };

  private ReportSvg() {}

  /** The SVG document. */
  public static String svg(Comparison c) {
    int charts = c.results().size();
    int height = TOP + charts * (CHART_HEIGHT + GAP);
    double top = 1;
    for (PolicyResult r : c.results()) {
      Series s = r.series();
      for (int i = 0; i < s.size(); i++) {
        top = Math.max(top, Math.max(s.poweredCpu()[i], s.requestedCpu()[i]));
        top = Math.max(top, s.pendingPods()[i]);
      }
    }
    top = niceCeiling(top);
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " font-family=\"sans-serif\" font-size=\"12\">%n",
            WIDTH,
            height,
            WIDTH,
            height));
    out.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    int x = LEFT;
    for (String[] line : LINES) {
      out.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"12\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"19\">%s</text>%n",
              x,
              line[1],
              x + 18,
              escape(line[0])));
      x += 20 + line[0].length() * 7;
    }
    for (int k = 0; k < charts; k++) {
      chart(out, c.results().get(k), TOP + k * (CHART_HEIGHT + GAP) + 16, top);
    }
    out.append("</svg>\n");
    return out.toString();
  }

  private static void chart(StringBuilder out, PolicyResult r, int y0, double top) {
    Series s = r.series();
    int plotWidth = WIDTH - LEFT - RIGHT;
    out.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>"
                + "<text x=\"%d\" y=\"%d\">%.1f kWh (%.2f x oracle), extra wait p99 %.0f s, max"
                + " %.0f s, %.2f power-ons per server per day</text>%n",
            LEFT,
            y0 - 6,
            escape(r.policy()),
            LEFT + 150,
            y0 - 6,
            r.energyKWh(),
            r.energyVsOracle(),
            r.waitP99Seconds(),
            r.waitMaxSeconds(),
            r.powerOnsPerServerDay()));
    out.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999999\"/>%n",
            LEFT,
            y0,
            plotWidth,
            CHART_HEIGHT));
    for (int t = 0; t <= 4; t++) {
      double value = top * t / 4;
      int y = y0 + CHART_HEIGHT - (int) Math.round(CHART_HEIGHT * t / 4.0);
      out.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eeeeee\"/>"
                  + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>%n",
              LEFT,
              y,
              LEFT + plotWidth,
              y,
              LEFT - 6,
              y + 4,
              value));
    }
    long span = Math.max(1, (long) (s.size() - 1) * s.sampleSeconds());
    long tick = span > 4 * 86400 ? 86400 : span > 12 * 3600 ? 6 * 3600 : 3600;
    for (long t = 0; t <= span; t += tick) {
      int x = LEFT + (int) Math.round(plotWidth * (double) t / span);
      String label = tick >= 86400 ? "day " + t / 86400 : (t / 3600) + " h";
      out.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%s</text>%n",
              x,
              y0 + CHART_HEIGHT + 14,
              label));
    }
    double[] pending = new double[s.size()];
    for (int i = 0; i < pending.length; i++) {
      pending[i] = s.pendingPods()[i];
    }
    double[][] values = {s.poweredCpu(), s.readyCpu(), s.requestedCpu(), pending};
    for (int l = 0; l < LINES.length; l++) {
      out.append(
          String.format(
              Locale.ROOT,
              "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" points=\"%s\"/>%n",
              LINES[l][1],
              points(values[l], plotWidth, y0, top)));
    }
  }

  /** One point per pixel column: the highest value of the samples that fall in it. */
  static String points(double[] v, int plotWidth, int y0, double top) {
    StringBuilder pts = new StringBuilder();
    int n = v.length;
    if (n == 0) {
      return "";
    }
    int columns = Math.min(plotWidth, n);
    for (int col = 0; col < columns; col++) {
      int from = (int) ((long) col * n / columns);
      int to = Math.max(from + 1, (int) ((long) (col + 1) * n / columns));
      double max = 0;
      for (int i = from; i < to; i++) {
        max = Math.max(max, v[i]);
      }
      double x = LEFT + (columns == 1 ? 0 : (double) plotWidth * col / (columns - 1));
      double y = y0 + CHART_HEIGHT - CHART_HEIGHT * Math.min(1, max / top);
      pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
    }
    return pts.toString().trim();
  }

  /**
   * A round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at least {@code v}.
   */
  static double niceCeiling(double v) {
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }

  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /** An HTML page with the table, the workload and fleet, and the picture ({@code report.svg}). */
  public static String html(Comparison c, String title) {
    StringBuilder out = new StringBuilder();
    out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(escape(title))
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;")
        .append("text-align:right}td:first-child,th:first-child{text-align:left}</style>")
        .append("</head><body>\n<h1>")
        .append(escape(title))
        .append("</h1>\n<p>")
        .append(c.workload().pods().size())
        .append(" pods replayed over ")
        .append(
            String.format(
                Locale.ROOT, "%.1f", (c.workload().end() - c.workload().start()) / 86400.0))
        .append(" days; ")
        .append(c.workload().unplaceable().size())
        .append(" unplaceable; ")
        .append(c.workload().neverScheduled())
        .append(" never scheduled by the trace (replayed from their creation). Fleet: ");
    for (FleetPool p : c.fleet().pools()) {
      out.append(
          String.format(
              Locale.ROOT,
              "pool <b>%s</b>, %d servers of %.0f cores, %.0f GiB, %d GPUs, %.0f-%.0f W, boot %d-%d"
                  + " s. ",
              escape(p.name()),
              p.servers(),
              p.cores(),
              p.memoryGiB(),
              p.gpus(),
              p.idleWatts(),
              p.fullWatts(),
              p.boot().minSeconds(),
              p.boot().maxSeconds()));
    }
    out.append("</p>\n<table><tr><th>policy</th><th>energy kWh</th><th>energy / oracle</th>")
        .append("<th>extra wait p50 s</th><th>p99 s</th><th>max s</th>")
        .append("<th>power-ons / server / day</th><th>unplaceable pods</th></tr>\n");
    for (PolicyResult r : c.results()) {
      out.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%.1f</td><td>%.3f</td><td>%.0f</td><td>%.0f</td><td>%.0f</td>"
                  + "<td>%.2f</td><td>%d</td></tr>%n",
              escape(r.policy()),
              r.energyKWh(),
              r.energyVsOracle(),
              r.waitP50Seconds(),
              r.waitP99Seconds(),
              r.waitMaxSeconds(),
              r.powerOnsPerServerDay(),
              r.unplaceablePods()));
    }
    out.append("</table>\n<p><img src=\"report.svg\" alt=\"CPU requested, powered and Ready")
        .append(" capacity, and pods waiting over time, per policy\"></p>\n</body></html>\n");
    return out.toString();
  }
}
