package io.bamel.inventory.connection;

import io.etcd.jetcd.ClientBuilder;
import java.time.Duration;

/**
 * The connection settings every jetcd client of bamel gets, beside its endpoints and credentials.
 *
 * <p>gRPC keepalive finds a dead connection (a member whose host vanished without closing it)
 * within {@link #KEEPALIVE_TIME} plus {@link #KEEPALIVE_TIMEOUT}, well inside the 12 s a leader
 * acts on a lease without a confirmed renewal, so that the client moves to another endpoint in
 * time. The ping interval stays above etcd's {@code --grpc-keepalive-min-time} (5 s by default):
 * pinging faster makes etcd close the connection ({@code GOAWAY too_many_pings}). Pings are sent
 * only while calls are in progress ({@code keepaliveWithoutCalls} false), because etcd also refuses
 * pings on a connection without streams; a server always has some (the cache's watch, the leases'
 * keep-alives).
 */
public final class EtcdClientTuning {

  /** Idle time on a connection with calls in progress before a ping. */
  public static final Duration KEEPALIVE_TIME = Duration.ofSeconds(6);

  /** How long a ping may go unanswered before the connection is closed as dead. */
  public static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(3);

  private EtcdClientTuning() {}

  /** {@code builder} with bamel's keepalive settings; returns it. */
  public static ClientBuilder apply(ClientBuilder builder) {
    return builder
        .keepaliveTime(KEEPALIVE_TIME)
        .keepaliveTimeout(KEEPALIVE_TIMEOUT)
        .keepaliveWithoutCalls(false);
  }
}
