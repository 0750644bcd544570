package io.bamel.inventory.api;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.immutables.value.Value;

/**
 * Settings of the API.
 *
 * @param maxBodyBytes the largest request body accepted (413 above); default 8 MiB
 * @param anonymousRead whether requests without a token may read
 * @param readYourWrites how long a write waits for the cache to show it before answering
 * @param defaultLimit the page size of a listing without {@code limit}
 * @param maxLimit the largest {@code limit} accepted
 * @param watchHistory how many changes the watch keeps for resuming clients
 * @param clock the clock for event times
 * @param powerOffCommands the Wake-on-LAN power-off command names the server defines (its {@code
 *     wakeOnLan.powerOffCommandsFile}); a node naming another is refused (400). Default: none
 * @param connections the HTTP connector: TLS, connection limit, accept queue, timeouts
 * @param readinessNotes conditions an operator should know of that do not make the process unready
 *     (an etcd nearly full or in alarm, credentials without an allow-list); listed by {@code
 *     /readyz} as {@code warnings}. Default: none
 * @param sessions the console's sign-in sessions: lifetime and bounds ({@link Sessions#DEFAULTS})
 */
@Value.Builder
public record ApiOptions(
    long maxBodyBytes,
    boolean anonymousRead,
    Duration readYourWrites,
    int defaultLimit,
    int maxLimit,
    int watchHistory,
    Clock clock,
    Set<String> powerOffCommands,
    Connections connections,
    Supplier<List<String>> readinessNotes,
    Sessions sessions) {

  /**
   * The HTTP connector's settings.
   *
   * @param tls the certificate and key (and client CA) to serve HTTPS with; null: plain HTTP
   * @param maxConnections the most connections open at once; beyond it the server stops accepting
   *     until one closes (default 10,000)
   * @param acceptQueueSize the listen backlog (default 1,024)
   * @param idleTimeout how long a connection may send and receive nothing (default 30 s)
   * @param headerTimeout how long a client may take to send a request's line and headers, from its
   *     first byte; a client still sending them then is disconnected (default 10 s)
   * @param minRequestDataRate the slowest a request body may arrive, bytes per second (default
   *     1,024; the request fails with 408 below it)
   * @param tlsReloadInterval how often the TLS files are checked for changes (default 10 s)
   */
  @Value.Builder
  public record Connections(
      ApiTls tls,
      int maxConnections,
      int acceptQueueSize,
      Duration idleTimeout,
      Duration headerTimeout,
      long minRequestDataRate,
      Duration tlsReloadInterval) {

    /** Plain HTTP, 10,000 connections, backlog 1,024, 30 s idle, 10 s headers, 1 KiB/s, 10 s. */
    public static final Connections DEFAULTS =
        new Connections(
            null,
            10_000,
            1024,
            Duration.ofSeconds(30),
            Duration.ofSeconds(10),
            1024,
            Duration.ofSeconds(10));

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public Connections {
      if (maxConnections < 1) {
        throw new IllegalArgumentException("maxConnections must be at least 1");
      }
      if (acceptQueueSize < 1) {
        throw new IllegalArgumentException("acceptQueueSize must be at least 1");
      }
      positive("idleTimeout", idleTimeout);
      positive("headerTimeout", headerTimeout);
      positive("tlsReloadInterval", tlsReloadInterval);
      if (minRequestDataRate < 0) {
        throw new IllegalArgumentException("minRequestDataRate must not be negative");
      }
    }

    private static void positive(String name, Duration d) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be a positive duration");
      }
    }
  }

  /**
   * 8 MiB bodies, no anonymous read, 5 s read-your-writes, pages of 500 up to 10,000, no power-off
   * commands, plain HTTP with {@link Connections#DEFAULTS}.
   */
  public static final ApiOptions DEFAULTS =
      new ApiOptions(
          8L * 1024 * 1024,
          false,
          Duration.ofSeconds(5),
          500,
          10_000,
          10_000,
          Clock.systemUTC(),
          Set.of(),
          Connections.DEFAULTS,
          List::of,
          Sessions.DEFAULTS);

  /** Copies the command names; missing ones are none, missing connections the defaults. */
  public ApiOptions {
    powerOffCommands = powerOffCommands == null ? Set.of() : Set.copyOf(powerOffCommands);
    connections = connections == null ? Connections.DEFAULTS : connections;
    readinessNotes = readinessNotes == null ? List::of : readinessNotes;
    sessions = sessions == null ? Sessions.DEFAULTS : sessions;
  }

  /**
   * The console's sign-in sessions ({@code POST /api/v1/session}): kept in this process's memory.
   *
   * @param lifetime how long a session lasts from sign-in (default 8 h); its cookie expires with it
   * @param maxSessions the most sessions held at once (default 10,000): a sign-in beyond it, once
   *     expired sessions are dropped, is refused (503)
   * @param maxPerPrincipal the most sessions one token holds (default 64): its oldest session ends
   *     when it signs in once more
   */
  public record Sessions(Duration lifetime, int maxSessions, int maxPerPrincipal) {

    /** 8 hours, 10,000 sessions, 64 per token. */
    public static final Sessions DEFAULTS = new Sessions(Duration.ofHours(8), 10_000, 64);

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException naming the setting that is out of range
     */
    public Sessions {
      if (lifetime == null || lifetime.isNegative() || lifetime.toSeconds() < 1) {
        throw new IllegalArgumentException("session lifetime must be at least 1 s");
      }
      if (maxSessions < 1) {
        throw new IllegalArgumentException("maxSessions must be at least 1");
      }
      if (maxPerPrincipal < 1) {
        throw new IllegalArgumentException("maxPerPrincipal must be at least 1");
      }
    }
  }

  /** These options with other session settings. */
  public ApiOptions sessions(Sessions settings) {
    return with(o -> o.sessions(settings));
  }

  /** These options with conditions {@code /readyz} lists as warnings. */
  public ApiOptions withReadinessNotes(Supplier<List<String>> notes) {
    return with(o -> o.readinessNotes(notes));
  }

  /** These options with another body limit. */
  public ApiOptions withMaxBodyBytes(long bytes) {
    return with(o -> o.maxBodyBytes(bytes));
  }

  /** These options with anonymous read on or off. */
  public ApiOptions withAnonymousRead(boolean on) {
    return with(o -> o.anonymousRead(on));
  }

  /** These options with another watch history size. */
  public ApiOptions withWatchHistory(int changes) {
    return with(o -> o.watchHistory(changes));
  }

  /**
   * These options with the power-off command names the server defines (the names of its {@code
   * wakeOnLan.powerOffCommandsFile}).
   */
  public ApiOptions powerOffCommands(Set<String> names) {
    return with(o -> o.powerOffCommands(names));
  }

  /** These options with other connector settings. */
  public ApiOptions connections(Connections settings) {
    return with(o -> o.connections(settings));
  }

  /** The TLS files served with, or null for plain HTTP. */
  public ApiTls tls() {
    return connections.tls();
  }

  /** These options serving HTTPS with {@code tls} (null: plain HTTP). */
  public ApiOptions tls(ApiTls tls) {
    return withConnections(c -> c.tls(tls));
  }

  /** The most connections open at once. */
  public int maxConnections() {
    return connections.maxConnections();
  }

  /** These options with another connection limit. */
  public ApiOptions maxConnections(int max) {
    return withConnections(c -> c.maxConnections(max));
  }

  /** These options with another idle timeout and request-header deadline. */
  public ApiOptions connectionTimeouts(Duration idle, Duration headers) {
    return withConnections(c -> c.idleTimeout(idle).headerTimeout(headers));
  }

  /** These options checking the TLS files for changes every {@code interval}. */
  public ApiOptions tlsReloadInterval(Duration interval) {
    return withConnections(c -> c.tlsReloadInterval(interval));
  }

  /**
   * A copy with {@code change} applied to its components, through the generated {@link
   * ApiOptionsBuilder} (docs/architecture.md#generated-builders): a new component needs no change
   * here.
   */
  private ApiOptions with(Consumer<ApiOptionsBuilder> change) {
    ApiOptionsBuilder o = new ApiOptionsBuilder().from(this);
    change.accept(o);
    return o.build();
  }

  private ApiOptions withConnections(Consumer<ConnectionsBuilder> change) {
    ConnectionsBuilder c = new ConnectionsBuilder().from(connections);
    change.accept(c);
    return connections(c.build());
  }
}
