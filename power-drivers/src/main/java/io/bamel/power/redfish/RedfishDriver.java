package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPacer;
import io.bamel.power.BmcPowerState;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerCommand;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerResult;
import io.bamel.power.ReportingPowerDriver;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Destination;
import io.bamel.power.net.HostAddresses;
import io.bamel.power.net.NoDelaySocketFactory;
import io.bamel.power.net.OutboundOkHttp;
import io.bamel.power.net.PinnedDns;
import io.bamel.power.tls.TlsConfigurer;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;

/**
 * The Redfish driver (interface {@code redfish}), over OkHttp.
 *
 * <ul>
 *   <li>The address is a service root (the ComputerSystem is found from it, following its {@code
 *       Systems} link) or a System URI ({@link RedfishAddress}).
 *   <li>Sessions through the SessionService, one per BMC and credential, reused, renewed once on
 *       401, logged out on {@link #close()}; Basic auth where there is no SessionService or a login
 *       gives no token ({@link RedfishConnection}).
 *   <li>Connections as BMCs need them ({@link RedfishHttp}): idle ones kept shorter than BMCs keep
 *       them, a read that meets a closed one sent again on a new one, every action on a new
 *       connection of its own (repeated only when it provably never left), HTTP/1.0 services talked
 *       to one connection per request; at most {@link RedfishConfig#perBmcConcurrency()} requests
 *       at a time per BMC (per service root), {@link RedfishConfig#perBmcInterval()} apart.
 *   <li>The reset type is chosen from the reset action's {@code @Redfish.ActionInfo} (read once per
 *       system and session) or its inline {@code ResetType@Redfish.AllowableValues}, in the order
 *       {@link ResetTypes} documents. A graceful off sends {@code GracefulShutdown} or presses the
 *       power button; a BMC offering neither gets no {@code ForceOff} in its place (the call fails
 *       as unsupported); the driver forces off only after its graceful timeout, and {@link
 *       #execute} says so ({@link PowerResult#forced()}). A cycle without {@code PowerCycle} or
 *       {@code ForceRestart} is off, then on.
 *   <li>An action the system is already in (or heading to) is not sent again; a 400/409 answered to
 *       it is success after re-reading the state. 409 and 503 are retried with backoff.
 *   <li>Boot override PATCH as {@link BootPlan} decides from the system's allowable values, with
 *       {@code If-Match} when the BMC gives an ETag (header or {@code @odata.etag}); a 412 is
 *       answered by one fresh read and one more PATCH; a {@code Continuous} refused with 400 is set
 *       {@code Once} (with a note).
 *   <li>Power draw from the sources {@link PowerSources} finds by following the system's chassis
 *       links (found once per session, read directly after that).
 *   <li>Inspection as {@link RedfishInspection} reads it.
 *   <li>Every request sends {@code OData-Version: 4.0}. TLS is verified unless the endpoint opts
 *       out ({@link TlsSettings}).
 *   <li>The BMC's host name is resolved once (again after {@link #RESOLVE_AGAIN_AFTER}, replacing
 *       the connection only when the answer changed); the connection is pinned to those addresses
 *       ({@link PinnedDns}, no proxy), and before the credential is sent the addresses, the scheme
 *       and the TLS setting are checked against the credential's allow-list ({@link
 *       CredentialSource#credentials(String, Destination)}): a refusal is a terminal {@link
 *       PowerException.Reason#NOT_ALLOWED} before any request leaves.
 * </ul>
 *
 * <p>What {@link #execute} reports in {@link PowerResult#sent()}: the {@code ResetType} values
 * sent, in order; for a boot override {@code Boot <target> <enabled> [<mode>]}.
 */
public final class RedfishDriver extends ReportingPowerDriver {

  /** The interface name. */
  public static final String INTERFACE = "redfish";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CredentialSource credentials;
  private final RedfishConfig config;
  private final Clock clock;
  private final Sleeper sleeper;
  private final BmcPacer pacer;
  private final OkHttpClient baseClient;
  private final Map<TlsSettings, OkHttpClient> clients = new ConcurrentHashMap<>();

  /** How long a host name's resolution is used before it is looked up again. */
  public static final Duration RESOLVE_AGAIN_AFTER = Duration.ofSeconds(60);

  private record ConnectionKey(String address, String credentialsName, TlsSettings tls) {}

  /** A connection and when its host was resolved. */
  private record Pinned(RedfishConnection connection, Instant resolvedAt) {}

  private final Map<ConnectionKey, Pinned> connections = new ConcurrentHashMap<>();

  /** A driver with the default settings, the system clock and real sleeps. */
  public RedfishDriver(CredentialSource credentials) {
    this(credentials, RedfishConfig.defaults(), Clock.systemUTC(), Sleeper.SYSTEM);
  }

  /** A driver with explicit settings, clock and sleeper (tests inject both). */
  public RedfishDriver(
      CredentialSource credentials, RedfishConfig config, Clock clock, Sleeper sleeper) {
    this.credentials = credentials;
    this.config = config;
    this.clock = clock;
    this.sleeper = sleeper;
    this.pacer = new BmcPacer(config.perBmcConcurrency(), config.perBmcInterval(), clock, sleeper);
    // Plain HTTP only until an https:// connection asks for TLS (TlsConfigurer.apply).
    this.baseClient =
        OutboundOkHttp.apply(TlsConfigurer.cleartext(new OkHttpClient.Builder()))
            .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .readTimeout(0, TimeUnit.MILLISECONDS) // bounded per call by its deadline
            .retryOnConnectionFailure(false) // RedfishHttp decides what to repeat
            .socketFactory(new NoDelaySocketFactory())
            .build();
  }

  /** The client every BMC's client is built from (tests check its sockets). */
  OkHttpClient baseClient() {
    return baseClient;
  }

  @Override
  public String powerInterface() {
    return INTERFACE;
  }

  @Override
  public BmcPowerState bmcPowerState(BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    return SystemView.of(readSystem(connection(endpoint), deadline)).powerState();
  }

  @Override
  public PowerResult execute(PowerCommand command, BmcEndpoint endpoint, Deadline deadline)
      throws PowerException {
    RedfishConnection connection = connection(endpoint);
    PowerResult.Builder result = new PowerResult.Builder();
    switch (command) {
      case PowerCommand.On on -> on(connection, result, deadline);
      case PowerCommand.Off off -> off(connection, off.mode(), result, deadline);
      case PowerCommand.Cycle cycle -> cycle(connection, result, deadline);
      case PowerCommand.Boot boot -> boot(connection, boot.override(), result, deadline);
    }
    return result.build();
  }

  private void on(RedfishConnection connection, PowerResult.Builder result, Deadline deadline)
      throws PowerException {
    SystemView system = SystemView.of(readSystem(connection, deadline));
    BmcPowerState state = system.powerState();
    if (state == BmcPowerState.ON || state == BmcPowerState.POWERING_ON) {
      result.note("already " + state.wireName());
      return;
    }
    String type = ResetTypes.require(ResetTypes.Intent.ON, allowed(connection, system, deadline));
    if (type.equals(ResetTypes.PUSH_POWER_BUTTON) && state != BmcPowerState.OFF) {
      throw buttonNotNow(state);
    }
    reset(connection, system, type, BmcPowerState.ON, deadline);
    result.sent(type);
  }

  private void off(
      RedfishConnection connection,
      PowerOffMode mode,
      PowerResult.Builder result,
      Deadline deadline)
      throws PowerException {
    SystemView system = SystemView.of(readSystem(connection, deadline));
    BmcPowerState state = system.powerState();
    if (mode == PowerOffMode.FORCE) {
      if (state == BmcPowerState.OFF || state == BmcPowerState.POWERING_OFF) {
        result.note("already " + state.wireName());
        return;
      }
      String type =
          ResetTypes.require(ResetTypes.Intent.FORCE_OFF, allowed(connection, system, deadline));
      reset(connection, system, type, BmcPowerState.OFF, deadline);
      result.sent(type);
      return;
    }
    if (state == BmcPowerState.OFF) {
      result.note("already off");
      return;
    }
    if (state != BmcPowerState.POWERING_OFF) {
      ResetTypes.Allowed allowed = allowed(connection, system, deadline);
      String graceful =
          ResetTypes.choose(ResetTypes.Intent.GRACEFUL_OFF, allowed.types())
              .orElseThrow(() -> ResetTypes.unsupported(ResetTypes.Intent.GRACEFUL_OFF, allowed));
      if (graceful.equals(ResetTypes.PUSH_POWER_BUTTON) && state != BmcPowerState.ON) {
        throw buttonNotNow(state);
      }
      reset(connection, system, graceful, BmcPowerState.OFF, deadline);
      result.sent(graceful);
    }
    if (waitFor(
        connection, BmcPowerState.OFF, deadline.atMost(config.gracefulTimeout()), deadline)) {
      return;
    }
    SystemView now = SystemView.of(readSystem(connection, deadline));
    if (now.powerState() != BmcPowerState.OFF) {
      String force =
          ResetTypes.require(ResetTypes.Intent.FORCE_OFF, allowed(connection, now, deadline));
      reset(connection, now, force, BmcPowerState.OFF, deadline);
      result
          .sent(force)
          .forced()
          .note(
              "still "
                  + now.powerState().wireName()
                  + " after the graceful timeout of "
                  + config.gracefulTimeout().toSeconds()
                  + " s: forced off");
    }
    if (!waitFor(connection, BmcPowerState.OFF, deadline, deadline)) {
      throw new TransientPowerException(
          PowerException.Reason.TIMEOUT, "system is not off by the deadline");
    }
  }

  private void cycle(RedfishConnection connection, PowerResult.Builder result, Deadline deadline)
      throws PowerException {
    SystemView system = SystemView.of(readSystem(connection, deadline));
    if (system.powerState() == BmcPowerState.OFF) {
      result.note("the system was off: switched on");
      on(connection, result, deadline);
      return;
    }
    ResetTypes.Allowed allowed = allowed(connection, system, deadline);
    List<String> steps = ResetTypes.cycle(allowed.types());
    if (steps.isEmpty()) {
      throw ResetTypes.unsupported(ResetTypes.Intent.CYCLE, allowed);
    }
    if (steps.size() == 1) {
      reset(connection, system, steps.get(0), null, deadline);
      result.sent(steps.get(0));
      return;
    }
    result.note("the BMC offers neither PowerCycle nor ForceRestart: off, then on");
    if (system.powerState() != BmcPowerState.POWERING_OFF) {
      reset(connection, system, steps.get(0), BmcPowerState.OFF, deadline);
      result.sent(steps.get(0));
    }
    if (!waitFor(connection, BmcPowerState.OFF, deadline, deadline)) {
      throw new TransientPowerException(
          PowerException.Reason.TIMEOUT, "system is not off by the deadline (power cycle)");
    }
    SystemView off = SystemView.of(readSystem(connection, deadline));
    reset(connection, off, steps.get(1), BmcPowerState.ON, deadline);
    result.sent(steps.get(1));
  }

  private static TransientPowerException buttonNotNow(BmcPowerState state) {
    return new TransientPowerException(
        PowerException.Reason.BMC_ERROR,
        "the BMC's only way is PushPowerButton, a toggle; it is not pressed while the system is "
            + state.wireName());
  }

  /**
   * The reset types {@code system} allows: from its ActionInfo (read once per session), else its
   * inline allowable values, else the assumed ones.
   */
  private ResetTypes.Allowed allowed(
      RedfishConnection connection, SystemView system, Deadline deadline) throws PowerException {
    Optional<List<String>> fromInfo = Optional.empty();
    if (system.actionInfo() != null) {
      SessionCache cache = connection.cache();
      String key = connection.systemUri(deadline);
      List<String> types = cache.actionInfoResetTypes.get(key);
      if (types == null) {
        RedfishResponse info = get(connection, connection.resolve(system.actionInfo()), deadline);
        if (!info.ok() && info.code() != 404) {
          throw failure("GET " + system.actionInfo(), info);
        }
        types = info.ok() ? ResetTypes.fromActionInfo(info.body()).orElse(List.of()) : List.of();
        cache.actionInfoResetTypes.put(key, types);
      }
      fromInfo = types.isEmpty() ? Optional.empty() : Optional.of(types);
    }
    return ResetTypes.allowed(fromInfo, system.inlineResetTypes());
  }

  private void boot(
      RedfishConnection connection,
      BootOverride override,
      PowerResult.Builder result,
      Deadline deadline)
      throws PowerException {
    String uri = connection.systemUri(deadline);
    BootPlan plan = null;
    boolean reread = false;
    boolean onceTried = false;
    for (int attempt = 1; ; attempt++) {
      RedfishResponse current = get(connection, uri, deadline);
      if (!current.ok()) {
        throw failure("GET " + uri, current);
      }
      if (plan == null) {
        plan = BootPlan.of(current.body().path(RedfishNames.BOOT), override);
      }
      String etag =
          current.etag() != null
              ? current.etag()
              : current.body().path(RedfishNames.ODATA_ETAG).asText(null);
      Map<String, String> headers =
          etag == null ? Map.of() : Map.of(RedfishNames.HEADER_IF_MATCH, etag);
      RedfishResponse response = connection.send("PATCH", uri, plan.body(), headers, deadline);
      if (response.ok()) {
        result.sent(plan.summary());
        plan.notes().forEach(result::note);
        return;
      }
      if (response.code() == 412 && !reread) {
        reread = true; // the system changed since it was read: read it again, once
        continue;
      }
      if (response.code() == 400
          && plan.enabled().equals(RedfishNames.BOOT_CONTINUOUS)
          && !onceTried) {
        onceTried = true; // a BMC that refuses Continuous without saying so beforehand
        plan = plan.once("it answered " + response.errorMessage() + " to Continuous");
        continue;
      }
      boolean busy = response.code() == 409 || response.code() == 503;
      if (!busy || !pause(attempt + 1, deadline)) {
        throw failure("boot override PATCH " + uri, response);
      }
    }
  }

  @Override
  public HardwareInfo inspect(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    RedfishConnection connection = connection(endpoint);
    JsonNode system = readSystem(connection, deadline);
    return RedfishInspection.inspect(system, fetch(connection, deadline), connection::resolve);
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    RedfishConnection connection = connection(endpoint);
    String uri = connection.systemUri(deadline);
    RedfishFetch fetch = fetch(connection, deadline);
    SessionCache cache = connection.cache();
    PowerSources cached = cache.powerSources.get(uri);
    if (cached != null) {
      try {
        return cached.read(fetch);
      } catch (PowerSources.Gone gone) {
        cache.powerSources.remove(uri); // moved (a firmware update, say): discovered again below
      }
    }
    PowerSources sources =
        PowerSources.discover(readSystem(connection, deadline), fetch, connection::resolve);
    cache.powerSources.put(uri, sources);
    try {
      return sources.read(fetch);
    } catch (PowerSources.Gone gone) {
      cache.powerSources.remove(uri);
      throw new TerminalPowerException(
          PowerException.Reason.NOT_FOUND, "power reading: " + gone.getMessage());
    }
  }

  /** GETs for the helpers: the body, empty on 404, a typed failure otherwise. */
  private RedfishFetch fetch(RedfishConnection connection, Deadline deadline) {
    return uri -> {
      RedfishResponse response = get(connection, uri, deadline);
      if (response.code() == 404) {
        return Optional.empty();
      }
      if (!response.ok()) {
        throw failure("GET " + uri, response);
      }
      return Optional.of(response.body());
    };
  }

  /** Logs every session out and releases connections. */
  @Override
  public void close() {
    Deadline deadline = Deadline.in(Duration.ofSeconds(5), clock);
    connections.values().forEach(p -> p.connection().close(deadline.atMost(Duration.ofSeconds(2))));
    connections.clear();
    baseClient.dispatcher().executorService().shutdown();
  }

  /**
   * The connection for {@code endpoint}: reused while its resolution is fresh; otherwise the host
   * is resolved (again), the credential's allow-list checked against the answer, and a connection
   * pinned to it made (the old one is kept when the answer did not change).
   */
  private RedfishConnection connection(BmcEndpoint endpoint) throws PowerException {
    ConnectionKey key =
        new ConnectionKey(endpoint.address(), endpoint.credentialsName(), endpoint.tls());
    Instant now = clock.instant();
    Pinned existing = connections.get(key);
    if (existing != null && now.isBefore(existing.resolvedAt().plus(RESOLVE_AGAIN_AFTER))) {
      return existing.connection();
    }
    RedfishAddress address = RedfishAddress.parse(endpoint.address());
    URI root = URI.create(address.serviceRoot());
    String host = HostAddresses.normalize(root.getHost());
    List<InetAddress> resolved = HostAddresses.resolve(host);
    Destination destination =
        new Destination(
            root.getScheme().toLowerCase(Locale.ROOT), host, resolved, endpoint.tls().insecure());
    if (endpoint.credentialsName() != null) {
      credentials.checkDestination(endpoint.credentialsName(), destination);
    }
    if (existing != null
        && new HashSet<>(existing.connection().destination().addresses())
            .equals(new HashSet<>(resolved))) {
      connections.replace(key, existing, new Pinned(existing.connection(), now));
      return existing.connection();
    }
    OkHttpClient client =
        (root.getScheme().equalsIgnoreCase("http") ? baseClient : tlsClient(endpoint.tls()))
            .newBuilder()
            .dns(new PinnedDns(host, resolved))
            .proxy(Proxy.NO_PROXY)
            .build();
    RedfishHttp http =
        new RedfishHttp(client, config.keepAlive(), pacer, bmcKey(root, address.serviceRoot()));
    RedfishConnection created =
        new RedfishConnection(http, address, endpoint.credentialsName(), credentials, destination);
    Pinned pinned = new Pinned(created, now);
    if (existing == null) {
      Pinned raced = connections.putIfAbsent(key, pinned);
      return raced != null ? raced.connection() : created;
    }
    if (connections.replace(key, existing, pinned)) {
      existing.connection().close(Deadline.in(Duration.ofSeconds(2), clock));
      return created;
    }
    Pinned current = connections.get(key);
    return current != null ? current.connection() : created;
  }

  /**
   * The pacer's key for a BMC: its service root, scheme and host in lower case and the port
   * explicit ({@code https://bmc.example:443/redfish/v1}). For a real BMC that is its host:port;
   * the systems of one chassis manager share it.
   */
  static String bmcKey(URI root, String serviceRoot) {
    int port =
        root.getPort() >= 0
            ? root.getPort()
            : root.getScheme().equalsIgnoreCase("https") ? 443 : 80;
    String path = URI.create(serviceRoot).getRawPath();
    return root.getScheme().toLowerCase(Locale.ROOT)
        + "://"
        + HostAddresses.normalize(root.getHost()).toLowerCase(Locale.ROOT)
        + ":"
        + port
        + (path == null ? "" : path);
  }

  private OkHttpClient tlsClient(TlsSettings tls) throws PowerException {
    OkHttpClient client = clients.get(tls);
    if (client == null) {
      client = TlsConfigurer.apply(baseClient.newBuilder(), tls).build();
      clients.putIfAbsent(tls, client);
      client = clients.get(tls);
    }
    return client;
  }

  private JsonNode readSystem(RedfishConnection connection, Deadline deadline)
      throws PowerException {
    String uri = connection.systemUri(deadline);
    RedfishResponse response = get(connection, uri, deadline);
    if (!response.ok()) {
      throw failure("GET " + uri, response);
    }
    return response.body();
  }

  /** A GET, retrying 503 "busy" answers with backoff. */
  private RedfishResponse get(RedfishConnection connection, String uri, Deadline deadline)
      throws PowerException {
    for (int attempt = 1; ; attempt++) {
      RedfishResponse response = connection.send("GET", uri, null, Map.of(), deadline);
      if (response.code() != 503 || !pause(attempt + 1, deadline)) {
        return response;
      }
    }
  }

  /**
   * Posts a reset; a 400/409 is success when the system turns out to be in (or heading to) {@code
   * target}; 409/503 are retried with backoff.
   */
  private void reset(
      RedfishConnection connection,
      SystemView system,
      String type,
      BmcPowerState target,
      Deadline deadline)
      throws PowerException {
    ObjectNode body = JSON.createObjectNode().put(RedfishNames.RESET_TYPE, type);
    String action = connection.resolve(system.resetTarget(connection.systemUri(deadline)));
    for (int attempt = 1; ; attempt++) {
      RedfishResponse response = connection.send("POST", action, body, Map.of(), deadline);
      if (response.ok()) {
        return;
      }
      int code = response.code();
      if ((code == 400 || code == 409) && target != null) {
        BmcPowerState now = SystemView.of(readSystem(connection, deadline)).powerState();
        if (now == target || now == heading(target)) {
          return;
        }
      }
      if ((code == 409 || code == 503) && pause(attempt + 1, deadline)) {
        continue;
      }
      throw failure("ComputerSystem.Reset " + type, response);
    }
  }

  private static BmcPowerState heading(BmcPowerState target) {
    return target == BmcPowerState.ON ? BmcPowerState.POWERING_ON : BmcPowerState.POWERING_OFF;
  }

  /**
   * Polls until the system reports {@code target} or {@code pollUntil} passes. Each read may run
   * until {@code requestDeadline} (the caller's whole deadline): a read started just before the end
   * of a shorter polling window (the graceful timeout) is not cut off and turned into an error, it
   * only ends the polling.
   */
  private boolean waitFor(
      RedfishConnection connection,
      BmcPowerState target,
      Deadline pollUntil,
      Deadline requestDeadline)
      throws PowerException {
    while (true) {
      if (SystemView.of(readSystem(connection, requestDeadline)).powerState() == target) {
        return true;
      }
      Duration left = pollUntil.remaining();
      if (left.compareTo(config.pollInterval()) <= 0) {
        return false;
      }
      sleep(config.pollInterval());
    }
  }

  /** Sleeps before attempt {@code attempt}; false when no attempt is left. */
  private boolean pause(int attempt, Deadline deadline) throws PowerException {
    Optional<Duration> delay = config.busyBackoff().delayBefore(attempt, deadline.remaining());
    if (delay.isEmpty()) {
      return false;
    }
    sleep(delay.get());
    return true;
  }

  private void sleep(Duration duration) throws TransientPowerException {
    try {
      sleeper.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientPowerException(PowerException.Reason.TIMEOUT, "interrupted", e);
    }
  }

  /** The typed failure for an error answer. */
  static PowerException failure(String what, RedfishResponse response) {
    int code = response.code();
    String message = what + ": " + response.errorMessage();
    if (code == 404) {
      return new TerminalPowerException(PowerException.Reason.NOT_FOUND, message);
    }
    if (code == 409 || code == 503) {
      return new TransientPowerException(PowerException.Reason.BUSY, message);
    }
    if (code >= 500 || code == 412) {
      return new TransientPowerException(PowerException.Reason.BMC_ERROR, message);
    }
    if (code == 405 || code == 501) {
      return new TerminalPowerException(PowerException.Reason.UNSUPPORTED, message);
    }
    return new TerminalPowerException(PowerException.Reason.PROTOCOL, message);
  }
}
