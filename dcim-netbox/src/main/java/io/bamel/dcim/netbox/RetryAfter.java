package io.bamel.dcim.netbox;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The wait a {@code Retry-After} header asks for (RFC 9110: delay seconds, or an HTTP date), as a
 * pure function; null when the header is absent or unreadable.
 */
final class RetryAfter {

  private RetryAfter() {}

  static Duration parse(String header, Instant now) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String h = header.strip();
    if (h.chars().allMatch(Character::isDigit)) {
      try {
        return Duration.ofSeconds(Long.parseLong(h));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    try {
      Instant at = ZonedDateTime.parse(h, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration d = Duration.between(now, at);
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
