package io.bamel.server.client;

import java.time.Duration;
import java.time.Instant;

/**
 * Ages as kubectl prints them ({@code 45s}, {@code 5m10s}, {@code 3h}, {@code 4d2h}, {@code 400d},
 * {@code 2y3d}): precise for young things, coarse for old ones. Pure.
 */
public final class Ages {

  private Ages() {}

  /** The age of {@code since} at {@code now}; {@code <unknown>} without a time. */
  public static String since(Instant since, Instant now) {
    if (since == null) {
      return "<unknown>";
    }
    return human(Duration.between(since, now));
  }

  /** A duration the way kubectl's {@code HumanDuration} writes it (negative counts as 0). */
  public static String human(Duration d) {
    long seconds = Math.max(0, d.getSeconds());
    long minutes = seconds / 60;
    long hours = seconds / 3600;
    if (seconds < 120) {
      return seconds + "s";
    }
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    }
    if (minutes < 180) {
      return minutes + "m";
    }
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    }
    if (hours < 48) {
      return hours + "h";
    }
    if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    }
    if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    }
    long years = hours / 24 / 365;
    if (years < 8) {
      long days = hours / 24 % 365;
      return days == 0 ? years + "y" : years + "y" + days + "d";
    }
    return years + "y";
  }

  /** An ISO-8601 instant, or null when {@code text} is empty or not one. */
  public static Instant parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}
