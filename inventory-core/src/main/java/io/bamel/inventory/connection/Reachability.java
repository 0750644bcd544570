package io.bamel.inventory.connection;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The decisions of {@link EtcdReconnector}, pure over the times the caller passes (nanoseconds of
 * one monotonic clock): when an outage began and ended (and what to log then), when to probe the
 * endpoints, and when to cut the gRPC channel's reconnect delay short.
 *
 * <p>An outage is the time the channel is not connected. It is logged (a WARN at its start, an INFO
 * naming its length at its end) when no endpoint could be reached during it; a connection that
 * simply moved to another member (one member died) is not an outage worth a line. While no endpoint
 * is reachable, the endpoints are probed every {@code probeInterval}; the channel reconnects at
 * once when one answers, and in any case every {@code maxDelay}.
 *
 * <p>Not thread-safe: the reconnector's thread calls it.
 */
public final class Reachability {

  private final long probeInterval;
  private final long maxDelay;

  private boolean down;
  private long downSince;
  private boolean unreachable;
  private long lastProbe;
  private long lastReset;

  /** Probing every {@code probeInterval}, reconnecting at least every {@code maxDelay}. */
  public Reachability(Duration probeInterval, Duration maxDelay) {
    if (probeInterval.isNegative()
        || probeInterval.isZero()
        || maxDelay.compareTo(probeInterval) < 0) {
      throw new IllegalArgumentException("need 0 < probeInterval <= maxDelay");
    }
    this.probeInterval = probeInterval.toNanos();
    this.maxDelay = maxDelay.toNanos();
  }

  /**
   * The channel is connected at {@code now}; returns the INFO line when this ends an outage during
   * which no endpoint could be reached.
   */
  public Optional<String> connected(long now) {
    boolean logged = down && unreachable;
    long since = downSince;
    down = false;
    unreachable = false;
    return logged
        ? Optional.of(
            String.format(Locale.ROOT, "etcd reachable again after %.1f s", (now - since) / 1e9))
        : Optional.empty();
  }

  /**
   * The channel is not connected at {@code now}; {@code noEndpoint} when it has failed to reach any
   * endpoint (gRPC's {@code TRANSIENT_FAILURE}). Returns the WARN line at the first such failure of
   * an outage.
   */
  public Optional<String> disconnected(long now, boolean noEndpoint) {
    if (!down) {
      down = true;
      downSince = now;
      lastReset = now;
      lastProbe = now - probeInterval;
    }
    if (noEndpoint && !unreachable) {
      unreachable = true;
      return Optional.of(
          String.format(
              Locale.ROOT,
              "etcd unreachable: no endpoint accepts a connection (%.1f s since the connection"
                  + " broke); reconnecting as soon as one answers, at least every %.1f s",
              (now - downSince) / 1e9,
              maxDelay / 1e9));
    }
    return Optional.empty();
  }

  /**
   * Whether to probe the endpoints at {@code now}: no endpoint reachable, and none probed lately.
   */
  public boolean probeDue(long now) {
    if (!down || !unreachable || now - lastProbe < probeInterval) {
      return false;
    }
    lastProbe = now;
    return true;
  }

  /**
   * After a probe at {@code now}: whether to reconnect at once, because an endpoint answered or the
   * longest delay has passed since the last reconnect.
   */
  public boolean reconnectNow(long now, boolean anEndpointAnswers) {
    if (anEndpointAnswers || now - lastReset >= maxDelay) {
      lastReset = now;
      return true;
    }
    return false;
  }
}
