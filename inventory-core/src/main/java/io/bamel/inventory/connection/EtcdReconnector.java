package io.bamel.inventory.connection;

import io.bamel.inventory.runtime.CoreThreads;
import io.etcd.jetcd.Client;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a jetcd client's reconnects after an outage short and visible. grpc-java waits longer after
 * each failed attempt, up to 2 minutes, so a process whose etcd came back after a long outage
 * stayed unavailable for up to that long. This watches the client's gRPC channel: while no endpoint
 * is reachable it tries each endpoint's port every {@link #PROBE_INTERVAL}, and makes the channel
 * reconnect at once when one accepts a connection, and at least every {@link #MAX_DELAY}. It logs a
 * WARN when no endpoint can be reached and one INFO line when etcd is reachable again, naming the
 * outage's length ({@link Reachability}).
 *
 * <p>Started once per client (by {@code bamel server}); {@link #close()} stops it, not the client.
 */
public final class EtcdReconnector implements AutoCloseable {

  /** How often the channel's state is read. */
  public static final Duration POLL_INTERVAL = Duration.ofMillis(200);

  /** How often the endpoints are tried while none is reachable. */
  public static final Duration PROBE_INTERVAL = Duration.ofMillis(500);

  /** The longest wait between two reconnect attempts. */
  public static final Duration MAX_DELAY = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(EtcdReconnector.class);
  private static final int PROBE_TIMEOUT_MILLIS = 250;

  private final Optional<ManagedChannel> channel;
  private final List<InetSocketAddress> endpoints;
  private final Reachability reachability = new Reachability(PROBE_INTERVAL, MAX_DELAY);
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(CoreThreads.factory("etcd-reconnect"));

  /** A reconnector of {@code client}, whose endpoints (URLs) are {@code endpoints}. */
  public EtcdReconnector(Client client, List<String> endpoints) {
    this.channel = JetcdChannel.of(client);
    this.endpoints =
        endpoints.stream().map(EtcdReconnector::address).flatMap(Optional::stream).toList();
  }

  /** Starts watching the channel; returns this. */
  public EtcdReconnector start() {
    if (channel.isEmpty()) {
      LOG.warn(
          "this jetcd keeps its gRPC channel out of reach: after an etcd outage bamel reconnects"
              + " on grpc-java's schedule (up to 2 minutes late) and logs no reconnect line");
      return this;
    }
    thread.scheduleWithFixedDelay(
        CoreThreads.guarded("etcd reconnect check", LOG, this::check),
        0,
        POLL_INTERVAL.toMillis(),
        TimeUnit.MILLISECONDS);
    return this;
  }

  /** Whether the client's channel was found (so reconnects are bounded and logged). */
  public boolean active() {
    return channel.isPresent();
  }

  private void check() {
    ManagedChannel ch = channel.orElseThrow();
    ConnectivityState state = ch.getState(false);
    long now = System.nanoTime();
    switch (state) {
      case READY -> reachability.connected(now).ifPresent(LOG::info);
      case SHUTDOWN -> {}
      default -> {
        if (state == ConnectivityState.IDLE) {
          ch.getState(true); // connect now rather than at the next call
        }
        reachability
            .disconnected(now, state == ConnectivityState.TRANSIENT_FAILURE)
            .ifPresent(LOG::warn);
        if (reachability.probeDue(now)
            && reachability.reconnectNow(System.nanoTime(), anEndpointAnswers())) {
          ch.resetConnectBackoff();
        }
      }
    }
  }

  private boolean anEndpointAnswers() {
    for (InetSocketAddress endpoint : endpoints) {
      try (Socket socket = new Socket()) {
        // resolved at each probe: a name may point elsewhere after the outage
        socket.connect(
            new InetSocketAddress(endpoint.getHostString(), endpoint.getPort()),
            PROBE_TIMEOUT_MILLIS);
        LOG.debug("etcd endpoint {} accepts connections again", endpoint);
        return true;
      } catch (IOException e) {
        // not this one
      }
    }
    return false;
  }

  private static Optional<InetSocketAddress> address(String endpoint) {
    try {
      URI uri = URI.create(endpoint);
      if (uri.getHost() == null || uri.getPort() < 0) {
        return Optional.empty();
      }
      return Optional.of(InetSocketAddress.createUnresolved(uri.getHost(), uri.getPort()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Stops watching (the client itself stays open). */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
