package io.bamel.power.sim;

import io.bamel.power.BmcPowerState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * One simulated server behind a Redfish BMC: its power state with delayed transitions, its
 * sessions, its boot override and the counts of every operation it received. Thread-safe; the
 * state-changing methods are synchronized.
 *
 * <p>A fleet holds one per BMC, in the JVM of the controllers a benchmark measures, so what a
 * system keeps stays small and does not grow with the requests it answers: its operation counts are
 * one array, a session is one map entry, and request arrival times are kept only from the first
 * {@link #clearRequestStats()} on, for the test that asked for them.
 */
public final class SimulatedSystem {

  /** Why a boot override PATCH was refused, mapped to HTTP by the handler. */
  enum PatchProblem {
    /** No {@code If-Match}, though the System gave an ETag (428). */
    PRECONDITION_MISSING,
    /** An {@code If-Match} that no longer matches (412). */
    PRECONDITION_FAILED,
    /** A boot target outside the allowable values (400). */
    TARGET,
    /** A {@code BootSourceOverrideEnabled} outside the allowable values (400). */
    ENABLED,
    /** A {@code BootSourceOverrideMode} the profile does not offer or lets nobody write (400). */
    MODE
  }

  /** The outcome of a reset request, mapped to HTTP by the handler. */
  enum ResetOutcome {
    ACCEPTED,
    NOT_ALLOWED,
    ALREADY,
    BUSY
  }

  private final String id;
  private final Clock clock;
  private final SimFaults faults = new SimFaults();
  private final AtomicLongArray counts = new AtomicLongArray(SimOperation.values().length);
  private final Map<String, LongAdder> resets = new ConcurrentHashMap<>();

  /** Live sessions by token: when each was created and last used. */
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();

  /** Arrival times since the last {@link #clearRequestStats()}; null before the first. */
  private volatile List<Long> arrivals;

  private volatile SimSystemConfig config;
  private volatile TreeOf tree;

  /** The tree looked up for a profile instance. */
  private record TreeOf(SimProfile profile, ProfileTree tree) {}

  /** A live session: when it was created and when its token was last used. */
  private record Session(Instant created, Instant lastUsed) {}

  private BmcPowerState settled;
  private BmcPowerState target;
  private Instant transitionEnds;
  private String bootTarget = SimVocabulary.WIRE.initialBoot().target();
  private String bootEnabled = SimVocabulary.WIRE.initialBoot().enabled();
  private String bootMode = SimVocabulary.WIRE.initialBoot().mode();
  private int etag = 1;
  private boolean etagGiven;
  private String lastIfMatch;

  SimulatedSystem(String id, SimSystemConfig config, Clock clock) {
    this.id = id;
    this.config = config;
    this.clock = clock;
    this.settled = config.initialState() == BmcPowerState.ON ? BmcPowerState.ON : BmcPowerState.OFF;
  }

  /** The system's id (the path segment after {@code /bmc/}). */
  public String id() {
    return id;
  }

  /** The faults to inject into this system's answers. */
  public SimFaults faults() {
    return faults;
  }

  /** The current configuration. */
  public SimSystemConfig config() {
    return config;
  }

  /** The resources of the current profile (looked up again only when the profile changes). */
  ProfileTree tree() {
    SimProfile profile = config.profile();
    TreeOf current = tree;
    if (current == null || current.profile() != profile) {
      current = new TreeOf(profile, ProfileTree.of(profile));
      tree = current;
    }
    return current.tree();
  }

  /**
   * Changes the accepted credentials (simulates a rotated BMC password: clients with the old one
   * get 401) and drops every session.
   */
  public void setCredentials(String username, String password) {
    config = config.withCredentials(username, password);
    sessions.clear();
  }

  /** Replaces the configuration (credentials, delays, reset types) while running. */
  public void reconfigure(SimSystemConfig newConfig) {
    config = newConfig;
  }

  /** How many times this system received {@code operation}. */
  public long count(SimOperation operation) {
    return counts.get(operation.ordinal());
  }

  /** How many resets of {@code resetType} (such as {@code On}) this system accepted. */
  public long resets(String resetType) {
    LongAdder adder = resets.get(resetType);
    return adder == null ? 0 : adder.sum();
  }

  /** The number of live sessions. */
  public int sessionCount() {
    return sessions.size();
  }

  /** Ends every session at once (their tokens get 401 from now on). */
  public void expireSessions() {
    sessions.clear();
  }

  /** The power state now. */
  public synchronized BmcPowerState powerState() {
    settle();
    if (target == null) {
      return settled;
    }
    return target == BmcPowerState.ON ? BmcPowerState.POWERING_ON : BmcPowerState.POWERING_OFF;
  }

  /** Sets the power state at once (test setup), cancelling any transition. */
  public synchronized void forcePowerState(BmcPowerState state) {
    settled = state;
    target = null;
    transitionEnds = null;
  }

  /** The boot override as {@code [target, enabled]}. */
  public synchronized List<String> bootOverride() {
    return List.of(bootTarget, bootEnabled);
  }

  /** The boot mode (starts as the vocabulary's initial mode, UEFI). */
  public synchronized String bootMode() {
    return bootMode;
  }

  /**
   * The most requests this system was serving at once (since the last {@link
   * #clearRequestStats()}).
   */
  public int maxConcurrentRequests() {
    return maxInFlight.get();
  }

  /**
   * When each request arrived since the last {@link #clearRequestStats()}, in arrival order, as
   * {@link System#nanoTime()} values (comparable with a test's own); empty before the first call of
   * it, since a system records arrivals only once a test has asked for them.
   */
  public List<Long> requestArrivalNanos() {
    List<Long> recorded = arrivals;
    if (recorded == null) {
      return List.of();
    }
    synchronized (recorded) {
      return List.copyOf(recorded);
    }
  }

  /**
   * Forgets the concurrency and arrival statistics, and records each request's arrival from now on
   * ({@link #requestArrivalNanos()}).
   */
  public void clearRequestStats() {
    maxInFlight.set(inFlight.get());
    arrivals = new ArrayList<>();
  }

  /** A request for this system arrived; pair with {@link #requestEnded()}. */
  void requestStarted() {
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    List<Long> recording = arrivals;
    if (recording != null) {
      synchronized (recording) {
        recording.add(System.nanoTime());
      }
    }
  }

  /** A request for this system was answered. */
  void requestEnded() {
    inFlight.decrementAndGet();
  }

  /** The power draw now, in watts: the configured draw while on, standby power while off. */
  public synchronized double watts() {
    BmcPowerState state = powerState();
    return switch (state) {
      case ON -> config.watts();
      case POWERING_ON, POWERING_OFF -> config.watts() / 2;
      default -> 6.0;
    };
  }

  /** The System's current ETag, or {@code null} when the system has none. */
  public synchronized String etag() {
    return config.etags() ? "W/\"" + etag + "\"" : null;
  }

  /** The ETag to put in an answer; from then on a PATCH needs {@code If-Match}. */
  synchronized String giveEtag() {
    String current = etag();
    etagGiven |= current != null;
    return current;
  }

  /** The {@code If-Match} of the last boot override PATCH received ({@code null}: none). */
  public synchronized String lastIfMatch() {
    return lastIfMatch;
  }

  void record(SimOperation operation) {
    counts.incrementAndGet(operation.ordinal());
  }

  synchronized ResetOutcome reset(String type) {
    if (!config.allowableResetTypes().contains(type)) {
      return ResetOutcome.NOT_ALLOWED;
    }
    BmcPowerState now = powerState();
    if (now.transitional()) {
      return ResetOutcome.BUSY;
    }
    switch (SimVocabulary.WIRE.effectOf(type)) {
      case ON -> {
        if (now == BmcPowerState.ON) {
          return ResetOutcome.ALREADY;
        }
        begin(BmcPowerState.ON);
      }
      case OFF -> {
        if (now == BmcPowerState.OFF) {
          return ResetOutcome.ALREADY;
        }
        begin(BmcPowerState.OFF);
      }
      case GRACEFUL_OFF -> {
        if (now == BmcPowerState.OFF) {
          return ResetOutcome.ALREADY;
        }
        if (!config.ignoresGracefulShutdown()) {
          begin(BmcPowerState.OFF);
        }
      }
      case TOGGLE -> begin(now == BmcPowerState.ON ? BmcPowerState.OFF : BmcPowerState.ON);
      case RESTART -> begin(BmcPowerState.ON); // restarts and power cycles end on
    }
    resets.computeIfAbsent(type, t -> new LongAdder()).increment();
    return ResetOutcome.ACCEPTED;
  }

  /**
   * A boot override PATCH. With ETags on, once the System has given one, {@code ifMatch} must match
   * it; every accepted change moves the ETag on.
   *
   * @param concurrentChange whether another client changed the System just before (the ETag moves
   *     on first)
   */
  synchronized Optional<PatchProblem> patchBoot(
      String newTarget, String newEnabled, String ifMatch, boolean concurrentChange) {
    return patchBoot(newTarget, newEnabled, null, ifMatch, concurrentChange);
  }

  /**
   * A boot override PATCH, with the profile's rules: the targets its tree publishes as allowed, the
   * enablings it accepts, a mode only where it accepts modes, the mode an unsent one becomes
   * (Supermicro: Legacy), and an {@code If-Match} on every PATCH where the profile requires it.
   */
  synchronized Optional<PatchProblem> patchBoot(
      String newTarget,
      String newEnabled,
      String newMode,
      String ifMatch,
      boolean concurrentChange) {
    SimProfile profile = config.profile();
    lastIfMatch = ifMatch;
    if (concurrentChange) {
      etag++;
    }
    boolean alwaysRequired = profile.etags() == SimProfile.Etags.BODY_ONLY_REQUIRED;
    if (config.etags() && (etagGiven || alwaysRequired)) {
      if (ifMatch == null) {
        return Optional.of(PatchProblem.PRECONDITION_MISSING);
      }
      if (!ifMatch.equals(etag())) {
        return Optional.of(PatchProblem.PRECONDITION_FAILED);
      }
    }
    if (newTarget != null && !tree().bootTargets().contains(newTarget)) {
      return Optional.of(PatchProblem.TARGET);
    }
    if (newEnabled != null && !profile.bootEnabledValues().contains(newEnabled)) {
      return Optional.of(PatchProblem.ENABLED);
    }
    if (newMode != null && !profile.bootModeValues().contains(newMode)) {
      return Optional.of(PatchProblem.MODE);
    }
    if (newTarget != null) {
      bootTarget = newTarget;
    }
    if (newEnabled != null) {
      bootEnabled = newEnabled;
    }
    if (newMode != null) {
      bootMode = newMode;
    } else if (profile.bootModeWhenUnsent() != null) {
      bootMode = profile.bootModeWhenUnsent();
    }
    etag++;
    return Optional.empty();
  }

  /** Starts a session for good credentials; returns its token. */
  Optional<String> login(String user, String pass) {
    SimSystemConfig c = config;
    if (!c.username().equals(user) || !c.password().equals(pass)) {
      return Optional.empty();
    }
    String token = UUID.randomUUID().toString().replace("-", "");
    Instant now = clock.instant();
    sessions.put(token, new Session(now, now));
    return Optional.of(token);
  }

  /** Whether {@code token} names a live session; touches it. */
  boolean validSession(String token) {
    Session session = sessions.get(token);
    if (session == null) {
      return false;
    }
    Instant now = clock.instant();
    if (now.isAfter(session.lastUsed().plus(config.sessionTimeout()))) {
      sessions.remove(token);
      return false;
    }
    sessions.put(token, new Session(session.created(), now));
    return true;
  }

  boolean validBasic(String user, String pass) {
    SimSystemConfig c = config;
    return c.basicAuth() && c.username().equals(user) && c.password().equals(pass);
  }

  /** The ids of the live sessions. */
  List<String> sessionIds() {
    return sessions.keySet().stream().map(SimulatedSystem::sessionIdOf).sorted().toList();
  }

  /** Whether session {@code sessionId} is live. */
  boolean hasSession(String sessionId) {
    return sessions.keySet().stream().anyMatch(token -> sessionIdOf(token).equals(sessionId));
  }

  /** When session {@code sessionId} was created and when it expires unless used: two instants. */
  List<Instant> sessionTimes(String sessionId) {
    Instant now = clock.instant();
    Session session =
        sessions.entrySet().stream()
            .filter(e -> sessionIdOf(e.getKey()).equals(sessionId))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElse(new Session(now, now));
    return List.of(session.created(), session.lastUsed().plus(config.sessionTimeout()));
  }

  /** Ends session {@code sessionId} (its token's first 12 characters); whether it existed. */
  boolean logout(String sessionId) {
    return sessions.keySet().removeIf(token -> sessionIdOf(token).equals(sessionId));
  }

  static String sessionIdOf(String token) {
    return token.substring(0, 12);
  }

  private void begin(BmcPowerState to) {
    target = to;
    transitionEnds = clock.instant().plus(config.powerDelay());
    settle();
  }

  private void settle() {
    if (target != null && !clock.instant().isBefore(transitionEnds)) {
      settled = target;
      target = null;
      transitionEnds = null;
    }
  }

  /**
   * The SMBIOS system UUID of the simulated machine {@code id}: what its BMC serves at {@code
   * ComputerSystem.UUID} and what a kubelet on it would report as {@code
   * status.nodeInfo.systemUUID} (a name-based UUID of the id, so it is stable across runs).
   */
  public static String systemUuid(String id) {
    return UUID.nameUUIDFromBytes(id.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
  }
}
