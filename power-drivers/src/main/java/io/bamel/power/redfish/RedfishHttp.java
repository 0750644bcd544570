package io.bamel.power.redfish;

import io.bamel.power.BmcPacer;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.tls.HttpFailures;
import io.bamel.power.tls.KeyShareGroups;
import io.bamel.power.tls.KeyShareSocketFactory;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import javax.net.ssl.X509TrustManager;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.ConnectionPool;
import okhttp3.EventListener;
import okhttp3.Handshake;
import okhttp3.Headers;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP exchanges with one Redfish BMC, made to survive what BMCs do to connections:
 *
 * <ul>
 *   <li>Reads ({@code GET}, {@code HEAD}, {@code DELETE}: idempotent) reuse pooled connections,
 *       kept idle no longer than {@link RedfishConfig#keepAlive()}. A read made longer than that
 *       after the BMC's last request (a periodic read, a minute after the last one: {@link
 *       IdleLimit#lone}) goes on a connection of its own, closed after its answer: no pooled
 *       connection could serve it, and one left in the pool after it would only wait to expire,
 *       while OkHttp's task runner, shared by every pool in the JVM, scans each pool holding idle
 *       connections whenever any connection is made or expires (with a fleet's periodic reads
 *       pooled, that work grows with the square of the read rate; docs/benchmarks.md, "Figures
 *       behind the code"). A read that fails on its connection (a pooled one the BMC closed
 *       meanwhile answers "unexpected end of stream") is sent once more on a new connection. Such a
 *       failure on a connection idle for {@code t} teaches the BMC's idle timeout ({@link
 *       IdleLimit}: {@code t / 2}, at least 100 ms): from then on the BMC's idle connections are
 *       kept only that long, so the BMC's close costs one failed attempt per BMC, not one per read,
 *       and nothing is checked before a read. A BMC that announces its idle timeout {@code t} in a
 *       {@code Keep-Alive: timeout=N} header teaches the same from its first answer, so no read
 *       fails first.
 *   <li>Everything else ({@code POST}, {@code PATCH}: a reset, a boot override, a login) goes on a
 *       new connection of its own, so it never meets a connection the BMC has closed. It is sent
 *       again only when it provably never reached the BMC: its connection failed before the first
 *       byte of the request was written (refused, or a TLS handshake cut short).
 *   <li>A BMC answering {@code HTTP/1.0} without {@code Connection: keep-alive} closes after every
 *       answer (DMTF's mockup server does): from its first such answer on, every request to it goes
 *       on a new connection.
 *   <li>Once the BMC has completed a TLS 1.3 handshake, new connections offer one key share instead
 *       of the JDK's two ({@link KeyShareGroups}); a BMC refusing that handshake is offered every
 *       group again, and the request, which never left, is sent once more.
 *   <li>At most {@link RedfishConfig#perBmcConcurrency()} requests at a time reach the BMC, {@link
 *       RedfishConfig#perBmcInterval()} apart ({@link BmcPacer}); the wait counts against the
 *       call's deadline.
 * </ul>
 *
 * Thread-safe.
 */
final class RedfishHttp {

  private static final Logger LOG = LoggerFactory.getLogger(RedfishHttp.class);
  private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "DELETE");

  /**
   * A buffered answer.
   *
   * @param code the HTTP status
   * @param headers the response headers
   * @param body the body as text (empty when none)
   */
  record Answer(int code, Headers headers, String body) {
    String header(String name) {
      return headers.get(name);
    }
  }

  /**
   * Follows one call: whether it began writing its request (then it may have reached the BMC) and,
   * on the pooled client, how long the connection it was given had been idle ({@code idleSince}
   * holds when each pooled connection was last released; weak keys, so a connection the pool
   * dropped leaves no entry behind).
   */
  private static final class Tracker extends EventListener {
    private final Map<Connection, Long> idleSince;
    private final KeyShareGroups keyShares;
    private volatile boolean requestStarted;
    private volatile boolean handshaking;
    private volatile Duration reusedAfter; // null: a new connection

    Tracker(Map<Connection, Long> idleSince, KeyShareGroups keyShares) {
      this.idleSince = idleSince;
      this.keyShares = keyShares;
    }

    @Override
    public void secureConnectStart(Call call) {
      handshaking = true;
    }

    @Override
    public void secureConnectEnd(Call call, Handshake handshake) {
      handshaking = false;
      if (handshake != null) {
        keyShares.completed(handshake.tlsVersion().javaName());
      }
    }

    @Override
    public void connectionAcquired(Call call, Connection connection) {
      Long since = idleSince == null ? null : idleSince.remove(connection);
      reusedAfter = since == null ? null : Duration.ofNanos(System.nanoTime() - since);
    }

    @Override
    public void connectionReleased(Call call, Connection connection) {
      if (idleSince != null) {
        idleSince.put(connection, System.nanoTime());
      }
    }

    @Override
    public void requestHeadersStart(Call call) {
      requestStarted = true;
    }
  }

  private static final EventListener.Factory TRACKING =
      call -> {
        Tracker tracker = call.request().tag(Tracker.class);
        return tracker != null ? tracker : EventListener.NONE;
      };

  private volatile OkHttpClient pooled;
  private final OkHttpClient fresh;
  private final BmcPacer pacer;
  private final String bmc;
  private final IdleLimit idleLimit;
  private final KeyShareGroups keyShares = new KeyShareGroups();
  private final Map<Connection, Long> idleSince = Collections.synchronizedMap(new WeakHashMap<>());
  private final AtomicLong failedAttempts = new AtomicLong();
  private volatile boolean oneConnectionPerRequest;

  /** {@link System#nanoTime()} when the last request to the BMC began or ended; none yet: null. */
  private volatile Long lastRequestNanos;

  /**
   * @param client the client pinned to the BMC's checked addresses with its TLS settings
   * @param keepAlive how long an idle connection is kept
   * @param pacer the per-BMC limits
   * @param bmc the BMC's key for the pacer (its service root)
   */
  RedfishHttp(OkHttpClient client, Duration keepAlive, BmcPacer pacer, String bmc) {
    OkHttpClient offering = offeringLearntGroups(client, keyShares);
    this.pooled =
        offering
            .newBuilder()
            .connectionPool(new ConnectionPool(8, keepAlive.toMillis(), TimeUnit.MILLISECONDS))
            .eventListenerFactory(TRACKING)
            .build();
    this.fresh =
        offering
            .newBuilder()
            .connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS)) // nothing kept
            .eventListenerFactory(TRACKING)
            .build();
    this.pacer = pacer;
    this.bmc = bmc;
    this.idleLimit = new IdleLimit(keepAlive);
  }

  /**
   * {@code client} with its TLS sockets offering the groups {@code keyShares} chooses (the same TLS
   * context and trust); a client without TLS as it is.
   */
  private static OkHttpClient offeringLearntGroups(OkHttpClient client, KeyShareGroups keyShares) {
    X509TrustManager trust = client.x509TrustManager();
    if (trust == null) {
      return client;
    }
    return client
        .newBuilder()
        .sslSocketFactory(new KeyShareSocketFactory(client.sslSocketFactory(), keyShares), trust)
        .build();
  }

  /** What this BMC's new TLS connections offer, as learnt so far (for tests and logs). */
  KeyShareGroups.Offer keyShareOffer() {
    return keyShares.offer();
  }

  /** How long an idle connection to this BMC is kept for reuse, as learnt so far. */
  Duration idleLimit() {
    return idleLimit.current();
  }

  /** How many attempts failed on their connection and were sent again (for tests and logs). */
  long failedAttempts() {
    return failedAttempts.get();
  }

  /** How many connections to the BMC its pool holds, idle or in use (for tests). */
  int pooledConnections() {
    return pooled.connectionPool().connectionCount();
  }

  /** Whether the BMC was found to close after every answer (HTTP/1.0). */
  boolean oneConnectionPerRequest() {
    return oneConnectionPerRequest;
  }

  /**
   * Sends {@code request} and reads the whole answer, repeating it where that is safe (see the
   * class comment): once after a failure on its connection, and once in the BMC's lifetime after a
   * handshake refused with one key share.
   *
   * @param what the request for messages ({@code GET https://...}), without secrets
   */
  Answer execute(Request request, String what, Deadline deadline) throws PowerException {
    boolean idempotent = IDEMPOTENT.contains(request.method());
    Long last = lastRequestNanos;
    boolean lone = last != null && idleLimit.lone(Duration.ofNanos(System.nanoTime() - last));
    for (int attempt = 1; ; attempt++) {
      deadline.check(what);
      boolean newConnection = attempt > 1 || !idempotent || oneConnectionPerRequest || lone;
      lastRequestNanos = System.nanoTime();
      Tracker tracker = new Tracker(newConnection ? null : idleSince, keyShares);
      Request tracked = request.newBuilder().tag(Tracker.class, tracker).build();
      BmcPacer.Turn turn = turn(what, deadline);
      try {
        Call call = (newConnection ? fresh : pooled).newCall(tracked);
        call.timeout().timeout(Math.max(1, deadline.remaining().toMillis()), TimeUnit.MILLISECONDS);
        try (Response response = call.execute()) {
          ResponseBody body = response.body();
          String text = body == null ? "" : body.string();
          learn(response);
          return new Answer(response.code(), response.headers(), text);
        }
      } catch (IOException e) {
        // at most once per BMC (refused() holds once): also after a stale pooled connection
        if (tracker.handshaking
            && e instanceof SSLException
            && keyShares.refused()
            && !deadline.expired()) {
          failedAttempts.incrementAndGet();
          LOG.info(
              "{} refused a TLS handshake offering one key share ({}); offering every key exchange"
                  + " group from now on",
              bmc,
              e.toString());
          continue;
        }
        PowerException failure = HttpFailures.of(what, e);
        boolean onConnection = failure.reason() == PowerException.Reason.UNREACHABLE;
        Duration reusedAfter = tracker.reusedAfter;
        if (onConnection && reusedAfter != null) {
          keepShorter(reusedAfter);
        }
        boolean safe = idempotent || !tracker.requestStarted;
        if (attempt == 1 && safe && onConnection && !deadline.expired()) {
          failedAttempts.incrementAndGet();
          LOG.debug("{} failed on its connection ({}); sending it once more", what, e.toString());
          continue;
        }
        throw failure;
      } finally {
        lastRequestNanos = System.nanoTime();
        turn.close();
      }
    }
  }

  private BmcPacer.Turn turn(String what, Deadline deadline) throws PowerException {
    try {
      Optional<BmcPacer.Turn> turn = pacer.acquire(bmc, deadline.remaining());
      if (turn.isEmpty()) {
        throw new TransientPowerException(
            PowerException.Reason.TIMEOUT,
            what + ": the BMC is busy with other requests of bamel's until the deadline");
      }
      return turn.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, what + ": interrupted", e);
    }
  }

  /**
   * A pooled connection idle for {@code idle} failed: the BMC closes idle connections that soon.
   * When that lowers the {@link IdleLimit}, the pool is replaced by one keeping idle connections
   * only that long (its own cleanup closes them in time), so no later read meets a connection the
   * BMC has closed and nothing is checked per read.
   */
  private synchronized void keepShorter(Duration idle) {
    if (!idleLimit.closedAfter(idle)) {
      return;
    }
    LOG.debug("{} closed a connection idle for {} ms", bmc, idle.toMillis());
    replacePool();
  }

  /**
   * The BMC announced its idle timeout ({@code Keep-Alive: timeout=N}): when that lowers the {@link
   * IdleLimit}, the pool is replaced as after a failure, before any request has failed.
   */
  private synchronized void announced(Duration timeout) {
    if (!idleLimit.announced(timeout)) {
      return;
    }
    LOG.debug("{} announces it keeps idle connections {} s", bmc, timeout.toSeconds());
    replacePool();
  }

  private void replacePool() {
    Duration limit = idleLimit.current();
    OkHttpClient old = pooled;
    pooled =
        old.newBuilder()
            .connectionPool(new ConnectionPool(8, limit.toMillis(), TimeUnit.MILLISECONDS))
            .build();
    old.connectionPool().evictAll();
    LOG.debug("{}: idle connections kept {} ms from now on", bmc, limit.toMillis());
  }

  /**
   * An HTTP/1.0 answer without keep-alive: the BMC closes after every answer. A {@code Keep-Alive:
   * timeout=N} header: the BMC's idle timeout.
   */
  private void learn(Response response) {
    KeepAliveHeader.timeout(response.header(RedfishNames.HEADER_KEEP_ALIVE))
        .ifPresent(this::announced);
    if (!oneConnectionPerRequest
        && response.protocol() == Protocol.HTTP_1_0
        && !RedfishNames.HEADER_CONNECTION_KEEP_ALIVE.equalsIgnoreCase(
            response.header(RedfishNames.HEADER_CONNECTION))) {
      oneConnectionPerRequest = true;
      pooled.connectionPool().evictAll();
      LOG.debug("{} answers HTTP/1.0 and closes: one connection per request from now on", bmc);
    }
  }

  /** Closes idle connections. */
  void close() {
    pooled.connectionPool().evictAll();
  }
}
