package io.bamel.inventory.api.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.HttpConnection;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A deadline for a request's line and headers: a connection whose client started a request and has
 * not finished sending its headers {@code timeout} after it was first seen doing so is closed. The
 * idle timeout alone cannot stop a client that sends one header line every few seconds (each line
 * resets it), so a few such clients could hold every connection; the minimum data rate covers
 * bodies, this covers headers. A bean of the connector: it sees every HTTP connection open and
 * close, and checks them every quarter of the timeout (at most every second).
 */
public final class HeaderDeadline extends AbstractLifeCycle implements Connection.Listener {

  private static final Logger LOG = LoggerFactory.getLogger(HeaderDeadline.class);

  /** A request in its headers: which request of the connection, since when. */
  private record Started(long request, long sinceNanos) {}

  private final long timeoutNanos;
  private final long periodMillis;
  private final Map<HttpConnection, Started> connections = new ConcurrentHashMap<>();
  private final Map<HttpConnection, Boolean> open = new ConcurrentHashMap<>();
  private ScheduledExecutorService checker;

  HeaderDeadline(Duration timeout) {
    this.timeoutNanos = timeout.toNanos();
    this.periodMillis = Math.max(20, Math.min(1000, timeout.toMillis() / 4));
  }

  @Override
  public void onOpened(Connection connection) {
    if (connection instanceof HttpConnection http) {
      open.put(http, Boolean.TRUE);
    }
  }

  @Override
  public void onClosed(Connection connection) {
    if (connection instanceof HttpConnection http) {
      open.remove(http);
      connections.remove(http);
    }
  }

  @Override
  protected void doStart() {
    checker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bamel-api-header-deadline");
              t.setDaemon(true);
              return t;
            });
    checker.scheduleWithFixedDelay(
        () -> check(System.nanoTime()), periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  @Override
  protected void doStop() {
    if (checker != null) {
      checker.shutdownNow();
    }
    connections.clear();
    open.clear();
  }

  /** Closes the connections that have been in a request's headers longer than the timeout. */
  void check(long now) {
    for (HttpConnection connection : open.keySet()) {
      try {
        if (!inHeaders(connection.getParser().getState())) {
          connections.remove(connection);
          continue;
        }
        long request = connection.getMessagesIn();
        Started started = connections.get(connection);
        if (started == null || started.request() != request) {
          connections.put(connection, new Started(request, now));
        } else if (now - started.sinceNanos() > timeoutNanos) {
          LOG.debug(
              "closing a connection from {}: request headers not complete after {} ms",
              connection.getEndPoint().getRemoteSocketAddress(),
              timeoutNanos / 1_000_000);
          connections.remove(connection);
          connection.getEndPoint().close();
        }
      } catch (RuntimeException e) {
        LOG.debug("header deadline check failed for a connection", e);
      }
    }
  }

  /** Whether the parser has started a request and not yet finished its headers. */
  static boolean inHeaders(HttpParser.State state) {
    return state != HttpParser.State.START && state.ordinal() < HttpParser.State.CONTENT.ordinal();
  }
}
