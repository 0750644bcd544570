package io.bamel.power.sim;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How a simulated BMC treats its HTTP connections, after each answer it gives.
 *
 * <ul>
 *   <li>{@link #keepAlive(Duration)}: HTTP/1.1 keep-alive; a connection idle that long is closed
 *       without a word (as Apache's {@code KeepAliveTimeout} or lighttpd's {@code
 *       max-keep-alive-idle} do). The default keeps connections 30 s.
 *   <li>{@link #http10()}: answers {@code HTTP/1.0} without a {@code Connection} header and closes
 *       after every answer, as DMTF's Redfish-Mockup-Server (Python's {@code http.server}) does.
 *   <li>{@link #closeAnnounced()}: HTTP/1.1 with {@code Connection: close} on every answer, then
 *       closes.
 * </ul>
 *
 * <p>{@link #withIdleTimeoutAnnounced()}: a kept connection's answers also say how long it may stay
 * idle, {@code Keep-Alive: timeout=N} in whole seconds (as Apache httpd does by default).
 *
 * @param oldHttp whether the status line says {@code HTTP/1.0}
 * @param closeAfterAnswer whether the connection is closed after every answer
 * @param announceClose whether the answer carries {@code Connection: close}
 * @param idleTimeout how long a kept connection may wait for its next request before it is closed
 * @param announceIdleTimeout whether a kept connection's answers carry {@code Keep-Alive:
 *     timeout=N} (the idle timeout in whole seconds, rounded down)
 */
public record SimConnection(
    boolean oldHttp,
    boolean closeAfterAnswer,
    boolean announceClose,
    Duration idleTimeout,
    boolean announceIdleTimeout) {

  /** Keep-alive, closed after 30 s idle. */
  public static final SimConnection DEFAULT = keepAlive(Duration.ofSeconds(30));

  /** Checks the timeout. */
  public SimConnection {
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    if (idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException("idleTimeout must be positive");
    }
    if (announceIdleTimeout && idleTimeout.toSeconds() < 1) {
      throw new IllegalArgumentException("an announced idle timeout is at least 1 s");
    }
  }

  /** The same, announcing the idle timeout in a {@code Keep-Alive: timeout=N} header. */
  public SimConnection withIdleTimeoutAnnounced() {
    return new SimConnection(oldHttp, closeAfterAnswer, announceClose, idleTimeout, true);
  }

  /** HTTP/1.1 keep-alive, silently closed after {@code idle} without a request. */
  public static SimConnection keepAlive(Duration idle) {
    return new SimConnection(false, false, false, idle, false);
  }

  /** HTTP/1.0, closed after every answer without saying so. */
  public static SimConnection http10() {
    return new SimConnection(true, true, false, Duration.ofSeconds(30), false);
  }

  /** HTTP/1.1 with {@code Connection: close} on every answer. */
  public static SimConnection closeAnnounced() {
    return new SimConnection(false, true, true, Duration.ofSeconds(30), false);
  }

  /**
   * Parses a command-line value: {@code keep-alive}, {@code keep-alive:MILLIS}, {@code http10} or
   * {@code close}.
   */
  public static SimConnection parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("keep-alive")) {
      return DEFAULT;
    }
    if (v.startsWith("keep-alive:")) {
      return keepAlive(Duration.ofMillis(Long.parseLong(v.substring("keep-alive:".length()))));
    }
    return switch (v) {
      case "http10" -> http10();
      case "close" -> closeAnnounced();
      default ->
          throw new IllegalArgumentException(
              "want keep-alive, keep-alive:MILLIS, http10 or close, not " + value);
    };
  }
}
