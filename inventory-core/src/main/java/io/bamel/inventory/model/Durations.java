package io.bamel.inventory.model;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as operators write them: Go/Kubernetes style ({@code 90s}, {@code 10m}, {@code 1h30m},
 * {@code 500ms}) or ISO-8601 ({@code PT10M}). bamel writes the Go style.
 */
public final class Durations {

  private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");
  private static final int MAX_TEXT = 32;

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @throws InvalidInputException when {@code text} is not one
   */
  public static Duration parse(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_TEXT) {
      throw new InvalidInputException("duration", "not a duration: " + Texts.quote(text));
    }
    if (text.startsWith("P") || text.startsWith("p")) {
      try {
        return Duration.parse(text);
      } catch (DateTimeParseException e) {
        throw new InvalidInputException("duration", "not a duration: " + Texts.quote(text));
      }
    }
    if (text.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(text);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find()) {
      if (m.start() != end) {
        break;
      }
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                case "s" -> Duration.ofSeconds(n);
                default -> Duration.ofMillis(n);
              });
      end = m.end();
    }
    if (end != text.length()) {
      throw new InvalidInputException(
          "duration", "not a duration: " + Texts.quote(text) + " (expected e.g. 90s, 10m, 1h30m)");
    }
    return total;
  }

  /** Formats a duration in the Go style: {@code 1h30m}, {@code 45s}, {@code 250ms}, {@code 0s}. */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (d.isNegative()) {
      sb.append('-');
      d = d.negated();
    }
    long hours = d.toHours();
    int minutes = d.toMinutesPart();
    int seconds = d.toSecondsPart();
    int millis = d.toMillisPart();
    if (hours > 0) {
      sb.append(hours).append('h');
    }
    if (minutes > 0) {
      sb.append(minutes).append('m');
    }
    if (seconds > 0) {
      sb.append(seconds).append('s');
    }
    if (millis > 0) {
      sb.append(millis).append("ms");
    }
    return sb.toString();
  }

  static void checkNonNegative(Validator v, String field, Duration d) {
    v.check(d == null || !d.isNegative(), field, "must not be negative");
  }

  static void checkPositive(Validator v, String field, Duration d) {
    v.check(d == null || d.isPositive(), field, "must be positive");
  }
}
