package io.bamel.power.sim;

import io.bamel.power.BmcPowerState;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.immutables.value.Value;

/**
 * How one simulated Redfish system behaves. Build it from {@link #defaults()} with the {@code
 * with...} methods.
 *
 * @param username the accepted user name
 * @param password the accepted password
 * @param sessionService whether the BMC offers a SessionService (else only Basic auth)
 * @param basicAuth whether Basic auth is accepted
 * @param sessionTimeout idle time after which a session token is refused (401)
 * @param powerDelay how long a power change takes; {@code PoweringOn}/{@code PoweringOff} meanwhile
 * @param allowableResetTypes the {@code ResetType@Redfish.AllowableValues} the system announces
 * @param ignoresGracefulShutdown whether the "operating system" ignores {@code GracefulShutdown}
 * @param initialState the power state at start ({@link BmcPowerState#ON} or {@link
 *     BmcPowerState#OFF})
 * @param watts the power draw while on (a few watts of standby power while off)
 * @param etags whether the System carries an ETag; once it has given one, a boot override PATCH
 *     needs a matching {@code If-Match} (428 without one, 412 with a stale one)
 * @param alreadyInStateStatus the HTTP status of a reset asking for the state the system is already
 *     in: 400 (the default) or 409, as some BMCs answer
 * @param profile the vendor family whose Redfish shape the system has ({@link SimProfile#DEFAULT}:
 *     the simulator's own)
 * @param connection how the BMC treats HTTP connections (keep-alive 30 s by default)
 */
@Value.Builder
public record SimSystemConfig(
    String username,
    String password,
    boolean sessionService,
    boolean basicAuth,
    Duration sessionTimeout,
    Duration powerDelay,
    List<String> allowableResetTypes,
    boolean ignoresGracefulShutdown,
    BmcPowerState initialState,
    double watts,
    boolean etags,
    int alreadyInStateStatus,
    SimProfile profile,
    SimConnection connection) {

  /** The reset types of a typical server BMC. */
  public static final List<String> FULL_RESET_TYPES =
      List.copyOf(SimVocabulary.WIRE.fullResetTypes());

  /** Copies the list; a missing profile or connection behaviour is the default one. */
  public SimSystemConfig {
    allowableResetTypes = List.copyOf(allowableResetTypes);
    profile = profile == null ? SimProfile.DEFAULT : profile;
    connection = connection == null ? SimConnection.DEFAULT : connection;
  }

  /**
   * User {@code admin}, password {@code password}, sessions and Basic auth, 30 min session timeout,
   * 1 s power delay, every reset type, off at start, 250 W, ETags, 400 for "already in that state",
   * the default profile, keep-alive connections closed after 30 s idle.
   */
  public static SimSystemConfig defaults() {
    return new SimSystemConfig(
        "admin",
        "password",
        true,
        true,
        Duration.ofMinutes(30),
        Duration.ofSeconds(1),
        FULL_RESET_TYPES,
        false,
        BmcPowerState.OFF,
        250,
        true,
        400,
        SimProfile.DEFAULT,
        SimConnection.DEFAULT);
  }

  /** With other accepted credentials. */
  public SimSystemConfig withCredentials(String user, String pass) {
    return with(b -> b.username(user).password(pass));
  }

  /** With or without SessionService and Basic auth. */
  public SimSystemConfig withAuth(boolean sessions, boolean basic) {
    return with(b -> b.sessionService(sessions).basicAuth(basic));
  }

  /** With another session idle timeout. */
  public SimSystemConfig withSessionTimeout(Duration timeout) {
    return with(b -> b.sessionTimeout(timeout));
  }

  /** With another power change delay. */
  public SimSystemConfig withPowerDelay(Duration delay) {
    return with(b -> b.powerDelay(delay));
  }

  /** With other allowable reset types. */
  public SimSystemConfig withResetTypes(List<String> types) {
    return with(b -> b.allowableResetTypes(types));
  }

  /** With an operating system that ignores (or honours) {@code GracefulShutdown}. */
  public SimSystemConfig withIgnoredGracefulShutdown(boolean ignores) {
    return with(b -> b.ignoresGracefulShutdown(ignores));
  }

  /** With another initial power state. */
  public SimSystemConfig withInitialState(BmcPowerState state) {
    return with(b -> b.initialState(state));
  }

  /** With another power draw while on. */
  public SimSystemConfig withWatts(double onWatts) {
    return with(b -> b.watts(onWatts));
  }

  /** With or without an ETag on the System (and the If-Match it then requires). */
  public SimSystemConfig withEtags(boolean enabled) {
    return with(b -> b.etags(enabled));
  }

  /** With another status (400 or 409) for a reset to the state the system is already in. */
  public SimSystemConfig withAlreadyInStateStatus(int status) {
    if (status != 400 && status != 409) {
      throw new IllegalArgumentException("400 or 409, not " + status);
    }
    return with(b -> b.alreadyInStateStatus(status));
  }

  /**
   * Shaped like {@code profile}'s vendor family; the accepted reset types become the profile's
   * (change them after with {@link #withResetTypes}).
   */
  public SimSystemConfig withProfile(SimProfile shape) {
    return with(
        b ->
            b.profile(shape)
                .allowableResetTypes(shape.resetTypes())
                .etags(shape.etags() != SimProfile.Etags.NONE));
  }

  /** With another connection behaviour (close after every answer, keep-alive closed when idle). */
  public SimSystemConfig withConnection(SimConnection behaviour) {
    return with(b -> b.connection(behaviour));
  }

  /**
   * This config with the components {@code change} sets, through the generated {@link
   * SimSystemConfigBuilder} (docs/architecture.md#generated-builders): a new component needs no
   * change here.
   */
  private SimSystemConfig with(Consumer<SimSystemConfigBuilder> change) {
    SimSystemConfigBuilder b = new SimSystemConfigBuilder().from(this);
    change.accept(b);
    return b.build();
  }
}
