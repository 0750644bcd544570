package io.bamel.power.sim.ipmi;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One simulated IPMI v2.0 BMC of a {@link SimIpmiFleet}: its UDP port on 127.0.0.1, users, system
 * GUID, chassis power and RMCP+ sessions. It answers what arrives on its port ({@link #answer});
 * its state can be read and set by tests and benchmarks from any thread.
 *
 * <p>Sessions follow the specification: at most {@code maxSessions} at once (Open Session status
 * 01h beyond), dropped after {@code sessionTimeout} without a valid message (60 s by default, as on
 * most BMCs), messages of an active session accepted only encrypted and authenticated with the
 * session's keys and a sequence number in the window, others dropped without an answer.
 */
public final class SimIpmiBmc {

  private final String id;
  private final int port;
  private final List<SimIpmiUser> users;
  private final UUID guid;
  private final byte[] guidBytes;
  private final int maxSessions;
  private final long sessionTimeoutNanos;
  private final SecureRandom random;
  private final Map<Integer, SimSession> sessions = new ConcurrentHashMap<>();
  private volatile boolean poweredOn;
  private final AtomicInteger controls = new AtomicInteger();
  private final AtomicInteger lastAction = new AtomicInteger(-1);
  private final AtomicLong sessionsActivated = new AtomicLong();
  private final AtomicLong loginsRefused = new AtomicLong();
  private final AtomicLong commands = new AtomicLong();

  SimIpmiBmc(
      String id,
      int port,
      List<SimIpmiUser> users,
      boolean poweredOn,
      int maxSessions,
      Duration sessionTimeout,
      SecureRandom random) {
    this.id = id;
    this.port = port;
    this.users = List.copyOf(users);
    this.poweredOn = poweredOn;
    this.maxSessions = maxSessions;
    this.sessionTimeoutNanos = sessionTimeout.toNanos();
    this.random = random;
    this.guid = UUID.nameUUIDFromBytes(("bamel-sim-ipmi:" + id).getBytes());
    // The GUID's bytes as the BMC sends them (RAKP 2, Get System GUID): least significant first.
    byte[] be =
        ByteBuffer.allocate(16)
            .putLong(guid.getMostSignificantBits())
            .putLong(guid.getLeastSignificantBits())
            .array();
    this.guidBytes = new byte[16];
    for (int i = 0; i < 16; i++) {
      guidBytes[i] = be[15 - i];
    }
  }

  /** The name this BMC was added under. */
  public String id() {
    return id;
  }

  /** Its UDP port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** Its {@code mgmtAddress}: {@code 127.0.0.1:port}. */
  public String address() {
    return "127.0.0.1:" + port;
  }

  /** Its system GUID. */
  public UUID guid() {
    return guid;
  }

  /** Whether the chassis is powered on. */
  public boolean poweredOn() {
    return poweredOn;
  }

  /** Switches the chassis power, as a button press would. */
  public void setPoweredOn(boolean on) {
    poweredOn = on;
  }

  /** Chassis Control commands carried out so far. */
  public int controls() {
    return controls.get();
  }

  /**
   * The last Chassis Control action carried out (0 down, 1 up, 2 cycle, 3 reset, 5 soft), or -1.
   */
  public int lastAction() {
    return lastAction.get();
  }

  /** Sessions activated (RAKP 4 sent) so far. */
  public long sessionsActivated() {
    return sessionsActivated.get();
  }

  /** Logins refused (unknown user, privilege, wrong RAKP 3 code) so far. */
  public long loginsRefused() {
    return loginsRefused.get();
  }

  /** IPMI commands answered in a session so far. */
  public long commands() {
    return commands.get();
  }

  /** Sessions open now, established or not. */
  public int openSessions() {
    return sessions.size();
  }

  /**
   * The answer to one datagram that arrived on this BMC's port at {@code now} (nanoTime), or null
   * when a BMC would stay silent. Called by the fleet's one receiving thread.
   */
  byte[] answer(byte[] d, long now) {
    if (d.length < 5 || (d[0] & 0xff) != Packets.RMCP_VERSION) {
      return null;
    }
    int messageClass = d[3] & 0x9f;
    if (messageClass == Packets.CLASS_ASF) {
      return AsfPresence.pong(d);
    }
    if (messageClass != Packets.CLASS_IPMI) {
      return null;
    }
    int authType = d[4] & 0x0f;
    if (authType == Packets.AUTH_RMCP_PLUS) {
      return v2(d, now);
    }
    return authType == 0x00 ? v15(d) : null;
  }

  /** Outside a session, IPMI v1.5 framing: only Get Channel Authentication Capabilities. */
  private byte[] v15(byte[] d) {
    if (d.length < 14 || Wire.u32(d, 9) != 0) {
      return null;
    }
    int length = Wire.u8(d, 13);
    if (14 + length > d.length) {
      return null;
    }
    var request = LanRequest.parse(d, 14, length);
    if (request.isEmpty()) {
      return null;
    }
    LanRequest r = request.get();
    if (r.netFn() != SimCommands.NETFN_APP || r.command() != 0x38) {
      return Packets.v15(r.answer(SimCommands.INVALID_COMMAND, new byte[0]));
    }
    if (r.data().length < 2) {
      return Packets.v15(r.answer(SimCommands.REQUEST_TOO_SHORT, new byte[0]));
    }
    var outcome = SimCommands.authCapabilities(r.data());
    return Packets.v15(r.answer(outcome.completionCode(), outcome.data()));
  }

  private byte[] v2(byte[] d, long now) {
    if (d.length < Packets.V2_PAYLOAD) {
      return null;
    }
    int type = d[5] & 0x3f;
    boolean encrypted = (d[5] & 0x80) != 0;
    boolean authenticated = (d[5] & 0x40) != 0;
    int sessionId = Wire.u32(d, 6);
    int length = Wire.u16(d, 14);
    if (Packets.V2_PAYLOAD + length > d.length) {
      return null;
    }
    byte[] payload = Arrays.copyOfRange(d, Packets.V2_PAYLOAD, Packets.V2_PAYLOAD + length);
    if (sessionId == 0) {
      if (encrypted || authenticated) {
        return null;
      }
      return switch (type) {
        case Packets.OPEN_SESSION_REQUEST -> SimHandshake.openSession(this, payload, now);
        case Packets.RAKP_1 -> SimHandshake.rakp1(this, payload, now);
        case Packets.RAKP_3 -> SimHandshake.rakp3(this, payload, now);
        default -> null;
      };
    }
    SimSession s = session(sessionId, now);
    if (s == null
        || s.state != SimSession.State.ACTIVE
        || type != Packets.PAYLOAD_IPMI
        || !encrypted
        || !authenticated) {
      return null;
    }
    int codeAt = d.length - s.suite.integrityLength;
    if (codeAt < Packets.V2_PAYLOAD + length + 2 || (d[codeAt - 1] & 0xff) != Packets.NEXT_HEADER) {
      return null;
    }
    int pad = d[codeAt - 2] & 0xff;
    if (Packets.V2_PAYLOAD + length + pad + 2 != codeAt || (codeAt - 4) % 4 != 0) {
      return null;
    }
    byte[] expected = s.suite.authCode(s.k1, d, 4, codeAt - 4);
    if (!SimCipherSuite.matches(expected, d, codeAt, expected.length)
        || !s.acceptSequence(Wire.u32(d, 10))) {
      return null;
    }
    var plain = SimCipherSuite.decrypt(s.k2, payload);
    if (plain.isEmpty()) {
      return null;
    }
    var request = LanRequest.parse(plain.get(), 0, plain.get().length);
    if (request.isEmpty()) {
      return null;
    }
    s.lastActivityNanos = now;
    commands.incrementAndGet();
    var outcome = SimCommands.execute(this, s, request.get());
    byte[] message = request.get().answer(outcome.completionCode(), outcome.data());
    byte[] packet =
        Packets.v2Session(
            s, Packets.PAYLOAD_IPMI, SimCipherSuite.encrypt(s.k2, message, random(16)));
    if (outcome.endSession()) {
      endSession(s);
    }
    return packet;
  }

  /** A new session, or null when {@code maxSessions} are open; forgets timed-out ones first. */
  SimSession newSession(int consoleId, SimCipherSuite suite, int privilege, long now) {
    sessions.values().removeIf(s -> now - s.lastActivityNanos > sessionTimeoutNanos);
    if (sessions.size() >= maxSessions) {
      return null;
    }
    while (true) {
      int managedId = random.nextInt();
      if (managedId != 0 && !sessions.containsKey(managedId)) {
        SimSession s = new SimSession(managedId, consoleId, suite, privilege, now);
        sessions.put(managedId, s);
        return s;
      }
    }
  }

  /** The session of {@code managedId}, unless unknown or timed out (then it is forgotten). */
  SimSession session(int managedId, long now) {
    SimSession s = sessions.get(managedId);
    if (s != null && now - s.lastActivityNanos > sessionTimeoutNanos) {
      sessions.remove(managedId);
      return null;
    }
    return s;
  }

  void endSession(SimSession s) {
    sessions.remove(s.managedId, s);
  }

  boolean endSession(int managedId) {
    return sessions.remove(managedId) != null;
  }

  /** The user named {@code name} (byte for byte), or null. */
  SimIpmiUser user(byte[] name) {
    for (SimIpmiUser u : users) {
      if (Arrays.equals(u.nameBytes(), name)) {
        return u;
      }
    }
    return null;
  }

  byte[] guidBytes() {
    return guidBytes.clone();
  }

  byte[] random(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  void loginRefused() {
    loginsRefused.incrementAndGet();
  }

  void sessionActivated() {
    sessionsActivated.incrementAndGet();
  }

  void controlled(int action) {
    controls.incrementAndGet();
    lastAction.set(action);
  }
}
