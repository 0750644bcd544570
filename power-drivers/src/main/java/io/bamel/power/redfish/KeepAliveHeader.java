package io.bamel.power.redfish;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the idle timeout a server announces in its {@code Keep-Alive} response header ({@code
 * Keep-Alive: timeout=5, max=100}, as Apache httpd sends by default): how many whole seconds it
 * keeps an idle connection open. Parameter names are case-insensitive; a value may be quoted. A
 * header without a {@code timeout}, or with one that is not a positive whole number of seconds,
 * announces nothing. Pure.
 */
final class KeepAliveHeader {

  private KeepAliveHeader() {}

  /** The announced idle timeout, if {@code value} (the header's value, or null) gives one. */
  static Optional<Duration> timeout(String value) {
    if (value == null) {
      return Optional.empty();
    }
    for (String parameter : value.split(",")) {
      int equals = parameter.indexOf('=');
      if (equals < 0) {
        continue;
      }
      String name = parameter.substring(0, equals).trim().toLowerCase(Locale.ROOT);
      if (!name.equals("timeout")) {
        continue;
      }
      String seconds = parameter.substring(equals + 1).trim();
      if (seconds.length() >= 2 && seconds.startsWith("\"") && seconds.endsWith("\"")) {
        seconds = seconds.substring(1, seconds.length() - 1);
      }
      if (seconds.isEmpty()
          || seconds.length() > 9
          || !seconds.chars().allMatch(Character::isDigit)) {
        return Optional.empty();
      }
      long parsed = Long.parseLong(seconds);
      return parsed > 0 ? Optional.of(Duration.ofSeconds(parsed)) : Optional.empty();
    }
    return Optional.empty();
  }
}
