package io.bamel.power.sim;

import io.bamel.power.PowerState;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One simulated server behind a Redfish BMC: its power state with delayed transitions, its
 * sessions, its boot override and the counts of every operation it received. Thread-safe; the
 * state-changing methods are synchronized.
 */
public final class SimulatedSystem {

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
  private final Map<SimOperation, LongAdder> counts = new EnumMap<>(SimOperation.class);
  private final Map<String, LongAdder> resets = new ConcurrentHashMap<>();
  private final Map<String, Instant> sessions = new ConcurrentHashMap<>();
  private volatile SimSystemConfig config;

  private PowerState settled;
  private PowerState target;
  private Instant transitionEnds;
  private String bootTarget = "None";
  private String bootEnabled = "Disabled";
  private int etag = 1;

  SimulatedSystem(String id, SimSystemConfig config, Clock clock) {
    this.id = id;
    this.config = config;
    this.clock = clock;
    this.settled = config.initialState() == PowerState.ON ? PowerState.ON : PowerState.OFF;
    for (SimOperation op : SimOperation.values()) {
      counts.put(op, new LongAdder());
    }
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
    return counts.get(operation).sum();
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
  public synchronized PowerState powerState() {
    settle();
    if (target == null) {
      return settled;
    }
    return target == PowerState.ON ? PowerState.POWERING_ON : PowerState.POWERING_OFF;
  }

  /** Sets the power state at once (test setup), cancelling any transition. */
  public synchronized void forcePowerState(PowerState state) {
    settled = state;
    target = null;
    transitionEnds = null;
  }

  /** The boot override as {@code [target, enabled]}. */
  public synchronized List<String> bootOverride() {
    return List.of(bootTarget, bootEnabled);
  }

  /** The power draw now, in watts: the configured draw while on, standby power while off. */
  public synchronized double watts() {
    PowerState state = powerState();
    return switch (state) {
      case ON -> config.watts();
      case POWERING_ON, POWERING_OFF -> config.watts() / 2;
      default -> 6.0;
    };
  }

  synchronized String etag() {
    return "W/\"" + etag + "\"";
  }

  void record(SimOperation operation) {
    counts.get(operation).increment();
  }

  synchronized ResetOutcome reset(String type) {
    if (!config.allowableResetTypes().contains(type)) {
      return ResetOutcome.NOT_ALLOWED;
    }
    PowerState now = powerState();
    if (now.transitional()) {
      return ResetOutcome.BUSY;
    }
    switch (type) {
      case "On", "ForceOn" -> {
        if (now == PowerState.ON) {
          return ResetOutcome.ALREADY;
        }
        begin(PowerState.ON);
      }
      case "ForceOff" -> {
        if (now == PowerState.OFF) {
          return ResetOutcome.ALREADY;
        }
        begin(PowerState.OFF);
      }
      case "GracefulShutdown" -> {
        if (now == PowerState.OFF) {
          return ResetOutcome.ALREADY;
        }
        if (!config.ignoresGracefulShutdown()) {
          begin(PowerState.OFF);
        }
      }
      case "PushPowerButton" -> begin(now == PowerState.ON ? PowerState.OFF : PowerState.ON);
      default -> begin(PowerState.ON); // restarts and power cycles end on
    }
    resets.computeIfAbsent(type, t -> new LongAdder()).increment();
    return ResetOutcome.ACCEPTED;
  }

  synchronized Optional<String> patchBoot(String newTarget, String newEnabled, String ifMatch) {
    if (ifMatch != null && !ifMatch.equals(etag())) {
      return Optional.of("etag");
    }
    if (newTarget != null) {
      if (!List.of("None", "Pxe", "Hdd", "Cd", "BiosSetup").contains(newTarget)) {
        return Optional.of("target");
      }
      bootTarget = newTarget;
    }
    if (newEnabled != null) {
      if (!List.of("Disabled", "Once", "Continuous").contains(newEnabled)) {
        return Optional.of("enabled");
      }
      bootEnabled = newEnabled;
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
    sessions.put(token, clock.instant());
    return Optional.of(token);
  }

  /** Whether {@code token} names a live session; touches it. */
  boolean validSession(String token) {
    Instant last = sessions.get(token);
    if (last == null) {
      return false;
    }
    Instant now = clock.instant();
    if (now.isAfter(last.plus(config.sessionTimeout()))) {
      sessions.remove(token);
      return false;
    }
    sessions.put(token, now);
    return true;
  }

  boolean validBasic(String user, String pass) {
    SimSystemConfig c = config;
    return c.basicAuth() && c.username().equals(user) && c.password().equals(pass);
  }

  /** Ends session {@code sessionId} (its token's first 12 characters); whether it existed. */
  boolean logout(String sessionId) {
    return sessions.keySet().removeIf(token -> sessionIdOf(token).equals(sessionId));
  }

  static String sessionIdOf(String token) {
    return token.substring(0, 12);
  }

  private void begin(PowerState to) {
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
}
