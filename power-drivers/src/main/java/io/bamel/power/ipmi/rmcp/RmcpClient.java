package io.bamel.power.ipmi.rmcp;

import io.bamel.power.PowerException;
import io.bamel.power.TransientPowerException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An IPMI v2.0 (RMCP+) client: sends IPMI requests to many BMCs over one UDP socket, each in a
 * session it opens on first use and keeps for the next calls while idle less than {@code
 * sessionIdle} (BMCs drop a session after 60 s of silence by default). Thread-safe: calls to
 * different BMCs run in parallel, calls in one session one at a time.
 *
 * <p>A kept session is found by BMC, user, cipher suite, privilege and a keyed fingerprint of the
 * password (so a different password never rides on a session another one opened); the password
 * itself is not kept. A kept session that no longer answers (the BMC dropped it) is replaced by a
 * new one once per call.
 */
public final class RmcpClient implements AutoCloseable {

  private record Key(InetSocketAddress bmc, String user, int suite, int privilege, String secret) {}

  private final RmcpTransport transport;
  private final Retransmission retransmission;
  private final Duration sessionIdle;
  private final Map<Key, RmcpSession> sessions = new ConcurrentHashMap<>();
  private final Map<Key, Object> opening = new ConcurrentHashMap<>();
  private final byte[] fingerprintKey = new byte[32];
  private final java.util.concurrent.atomic.AtomicLong lastSweepNanos =
      new java.util.concurrent.atomic.AtomicLong(System.nanoTime());

  /** A client on a new socket. */
  public RmcpClient(Retransmission retransmission, Duration sessionIdle) throws IOException {
    this.transport = new RmcpTransport();
    this.retransmission = retransmission;
    this.sessionIdle = sessionIdle;
    new SecureRandom().nextBytes(fingerprintKey);
  }

  /**
   * Sends {@code command} to the BMC of {@code login} and returns the response, whatever its
   * completion code. Opens a session when none is kept; {@code login}'s password is read only then
   * and never kept.
   *
   * @param timeout the longest the whole call may take, session opening included
   * @throws PowerException a terminal refusal (cipher suite, privilege, user, password) or a
   *     transient failure (no answer, busy)
   */
  public IpmiMessage.Response call(Login login, IpmiCommand command, Duration timeout)
      throws PowerException {
    long deadline = System.nanoTime() + timeout.toNanos();
    sweep();
    Key key = key(login);
    RmcpSession kept = kept(key);
    if (kept != null) {
      try {
        return kept.call(command, new Retransmission(retransmission.timeout(), 1), deadline);
      } catch (TransientPowerException e) {
        // the BMC may have dropped the session: forget it and open a new one
        sessions.remove(key, kept);
        kept.close(new Retransmission(Duration.ofMillis(1), 1), System.nanoTime());
      }
    }
    RmcpSession session = session(key, login, deadline);
    return session.call(command, retransmission, deadline);
  }

  /**
   * At most once per half idle time, closes (in the background) the sessions idle for longer than
   * {@code sessionIdle}: those of BMCs no longer asked, which would otherwise stay kept.
   */
  private void sweep() {
    long now = System.nanoTime();
    long last = lastSweepNanos.get();
    if (now - last < sessionIdle.toNanos() / 2 || !lastSweepNanos.compareAndSet(last, now)) {
      return;
    }
    for (Map.Entry<Key, RmcpSession> entry : sessions.entrySet()) {
      RmcpSession session = entry.getValue();
      if (now - session.lastUsedNanos() > sessionIdle.toNanos()
          && sessions.remove(entry.getKey(), session)) {
        Thread.ofVirtual().name("rmcp-close").start(() -> closeQuietly(session));
      }
    }
  }

  private RmcpSession kept(Key key) {
    RmcpSession session = sessions.get(key);
    if (session == null) {
      return null;
    }
    if (session.closed() || System.nanoTime() - session.lastUsedNanos() > sessionIdle.toNanos()) {
      if (sessions.remove(key, session)) {
        closeQuietly(session);
      }
      return null;
    }
    return session;
  }

  private RmcpSession session(Key key, Login login, long deadline) throws PowerException {
    // One session opened at a time per key, so that parallel first calls share it.
    synchronized (opening.computeIfAbsent(key, k -> new Object())) {
      RmcpSession session = kept(key);
      if (session == null) {
        session = RmcpSession.open(transport, login, retransmission, deadline);
        sessions.put(key, session);
      }
      return session;
    }
  }

  private Key key(Login login) {
    return new Key(
        login.bmc(),
        new String(login.user(), java.nio.charset.StandardCharsets.ISO_8859_1),
        login.suite().id(),
        login.privilege(),
        Bytes.hex(Bytes.hmac("HmacSHA256", fingerprintKey, login.password())));
  }

  private void closeQuietly(RmcpSession session) {
    session.close(retransmission, System.nanoTime() + retransmission.timeout().toNanos());
  }

  /** How many sessions are kept, for tests and metrics. */
  public int keptSessions() {
    return sessions.size();
  }

  /**
   * Closes every kept session (Close Session to each BMC, in parallel) and returns how many BMCs
   * confirmed.
   */
  public int closeSessions() {
    List<RmcpSession> all = new ArrayList<>(sessions.values());
    sessions.clear();
    long deadline = System.nanoTime() + retransmission.timeout().toNanos();
    try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
      List<java.util.concurrent.Future<Boolean>> results = new ArrayList<>();
      for (RmcpSession session : all) {
        results.add(
            executor.submit(
                () -> session.close(new Retransmission(retransmission.timeout(), 1), deadline)));
      }
      int confirmed = 0;
      for (var result : results) {
        try {
          confirmed += result.get() ? 1 : 0;
        } catch (Exception e) {
          // not confirmed
        }
      }
      return confirmed;
    }
  }

  /** Closes the kept sessions, then the socket. */
  @Override
  public void close() throws IOException {
    closeSessions();
    transport.close();
  }
}
