package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BootDevice;
import io.bamel.power.BootOverride;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.PowerState;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Destination;
import io.bamel.power.net.HostAddresses;
import io.bamel.power.net.PinnedDns;
import io.bamel.power.tls.TlsConfigurer;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * The Redfish driver (interface {@code redfish}), over OkHttp.
 *
 * <ul>
 *   <li>The address is a service root (the ComputerSystem is found from it) or a System URI ({@link
 *       RedfishAddress}).
 *   <li>Sessions through the SessionService, one per BMC and credential, reused, renewed once on
 *       401, logged out on {@link #close()}; Basic auth where there is no SessionService.
 *   <li>The reset type is chosen from {@code ResetType@Redfish.AllowableValues} ({@link
 *       ResetTypes}); graceful off falls back to {@code ForceOff} after the graceful timeout.
 *   <li>An action the system is already in (or heading to) is not sent again; a 400/409 answered to
 *       it is success after re-reading the state. 409 and 503 are retried with backoff.
 *   <li>Boot override PATCH with {@code If-Match} when the BMC gives an ETag; a 412 (the system
 *       changed since it was read) is answered by one fresh read and one more PATCH.
 *   <li>Every request sends {@code OData-Version: 4.0}. TLS is verified unless the endpoint opts
 *       out ({@link TlsSettings}).
 *   <li>The BMC's host name is resolved once (again after {@link #RESOLVE_AGAIN_AFTER}, replacing
 *       the connection only when the answer changed); the connection is pinned to those addresses
 *       ({@link PinnedDns}, no proxy), and before the credential is sent the addresses, the scheme
 *       and the TLS setting are checked against the credential's allow-list ({@link
 *       CredentialSource#credentials(String, Destination)}): a refusal is a terminal {@link
 *       PowerException.Reason#NOT_ALLOWED} before any request leaves.
 * </ul>
 */
public final class RedfishDriver implements PowerDriver {

  /** The interface name. */
  public static final String INTERFACE = "redfish";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CredentialSource credentials;
  private final RedfishConfig config;
  private final Clock clock;
  private final Sleeper sleeper;
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
    this.baseClient =
        new OkHttpClient.Builder()
            .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
            .readTimeout(0, TimeUnit.MILLISECONDS) // bounded per call by its deadline
            .connectionPool(new ConnectionPool(256, 5, TimeUnit.MINUTES))
            .retryOnConnectionFailure(false) // the driver decides what to repeat
            .followRedirects(false)
            .build();
  }

  @Override
  public String powerInterface() {
    return INTERFACE;
  }

  @Override
  public PowerState powerState(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    return SystemView.of(readSystem(connection(endpoint), deadline)).powerState();
  }

  @Override
  public void powerOn(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    RedfishConnection connection = connection(endpoint);
    SystemView system = SystemView.of(readSystem(connection, deadline));
    if (system.powerState() == PowerState.ON || system.powerState() == PowerState.POWERING_ON) {
      return;
    }
    String type = ResetTypes.require(ResetTypes.Intent.ON, system.allowableResetTypes());
    reset(connection, system, type, PowerState.ON, deadline);
  }

  @Override
  public void powerOff(BmcEndpoint endpoint, PowerOffMode mode, Deadline deadline)
      throws PowerException {
    RedfishConnection connection = connection(endpoint);
    SystemView system = SystemView.of(readSystem(connection, deadline));
    PowerState state = system.powerState();
    if (mode == PowerOffMode.FORCE) {
      if (state == PowerState.OFF || state == PowerState.POWERING_OFF) {
        return;
      }
      String type = ResetTypes.require(ResetTypes.Intent.FORCE_OFF, system.allowableResetTypes());
      reset(connection, system, type, PowerState.OFF, deadline);
      return;
    }
    if (state == PowerState.OFF) {
      return;
    }
    Optional<String> graceful =
        ResetTypes.choose(ResetTypes.Intent.GRACEFUL_OFF, system.allowableResetTypes());
    if (graceful.isPresent() && state != PowerState.POWERING_OFF) {
      reset(connection, system, graceful.get(), PowerState.OFF, deadline);
    }
    if (graceful.isPresent() || state == PowerState.POWERING_OFF) {
      if (waitFor(
          connection, PowerState.OFF, deadline.atMost(config.gracefulTimeout()), deadline)) {
        return;
      }
    }
    SystemView now = SystemView.of(readSystem(connection, deadline));
    if (now.powerState() != PowerState.OFF) {
      String force = ResetTypes.require(ResetTypes.Intent.FORCE_OFF, now.allowableResetTypes());
      reset(connection, now, force, PowerState.OFF, deadline);
    }
    if (!waitFor(connection, PowerState.OFF, deadline, deadline)) {
      throw new TransientPowerException(
          PowerException.Reason.TIMEOUT, "system is not off by the deadline");
    }
  }

  @Override
  public void powerCycle(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    RedfishConnection connection = connection(endpoint);
    SystemView system = SystemView.of(readSystem(connection, deadline));
    if (system.powerState() == PowerState.OFF) {
      powerOn(endpoint, deadline);
      return;
    }
    String type = ResetTypes.require(ResetTypes.Intent.CYCLE, system.allowableResetTypes());
    reset(connection, system, type, null, deadline);
  }

  @Override
  public void setBootDevice(BmcEndpoint endpoint, BootOverride override, Deadline deadline)
      throws PowerException {
    RedfishConnection connection = connection(endpoint);
    String uri = connection.systemUri(deadline);
    ObjectNode body = JSON.createObjectNode();
    ObjectNode boot = body.putObject("Boot");
    boot.put("BootSourceOverrideTarget", override.device() == BootDevice.PXE ? "Pxe" : "Hdd");
    boot.put("BootSourceOverrideEnabled", override.persistent() ? "Continuous" : "Once");
    boolean reread = false;
    for (int attempt = 1; ; attempt++) {
      RedfishResponse current = get(connection, uri, deadline);
      if (!current.ok()) {
        throw failure("GET " + uri, current);
      }
      String etag =
          current.etag() != null ? current.etag() : current.body().path("@odata.etag").asText(null);
      Map<String, String> headers = etag == null ? Map.of() : Map.of("If-Match", etag);
      RedfishResponse response = connection.send("PATCH", uri, body, headers, deadline);
      if (response.ok()) {
        return;
      }
      if (response.code() == 412 && !reread) {
        reread = true; // the system changed since it was read: read it again, once
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
    List<String> macs = new ArrayList<>();
    String interfaces = system.path("EthernetInterfaces").path("@odata.id").asText("");
    if (!interfaces.isEmpty()) {
      RedfishResponse collection = get(connection, connection.resolve(interfaces), deadline);
      if (collection.ok()) {
        for (JsonNode member : collection.body().path("Members")) {
          RedfishResponse nic =
              get(connection, connection.resolve(member.path("@odata.id").asText()), deadline);
          String mac = nic.body().path("MACAddress").asText("");
          if (nic.ok() && !mac.isEmpty()) {
            macs.add(mac.toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    JsonNode memory = system.path("MemorySummary").path("TotalSystemMemoryGiB");
    JsonNode count = system.path("ProcessorSummary").path("Count");
    return new HardwareInfo(
        text(system, "Manufacturer"),
        text(system, "Model"),
        text(system, "SerialNumber"),
        count.isNumber() ? count.asInt() : null,
        text(system.path("ProcessorSummary"), "Model"),
        memory.isNumber() ? Math.round(memory.asDouble() * 1024) : null,
        macs);
  }

  @Override
  public OptionalDouble powerDraw(BmcEndpoint endpoint, Deadline deadline) throws PowerException {
    RedfishConnection connection = connection(endpoint);
    JsonNode system = readSystem(connection, deadline);
    String chassis = system.path("Links").path("Chassis").path(0).path("@odata.id").asText("");
    if (chassis.isEmpty()) {
      return OptionalDouble.empty();
    }
    RedfishResponse power = get(connection, connection.resolve(chassis) + "/Power", deadline);
    if (power.code() == 404) {
      return OptionalDouble.empty();
    }
    if (!power.ok()) {
      throw failure("GET " + chassis + "/Power", power);
    }
    JsonNode watts = power.body().path("PowerControl").path(0).path("PowerConsumedWatts");
    return watts.isNumber() ? OptionalDouble.of(watts.asDouble()) : OptionalDouble.empty();
  }

  /** Logs every session out and releases connections. */
  @Override
  public void close() {
    Deadline deadline = Deadline.in(Duration.ofSeconds(5), clock);
    connections.values().forEach(p -> p.connection().close(deadline.atMost(Duration.ofSeconds(2))));
    connections.clear();
    baseClient.connectionPool().evictAll();
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
        tlsClient(endpoint.tls())
            .newBuilder()
            .dns(new PinnedDns(host, resolved))
            .proxy(Proxy.NO_PROXY)
            .build();
    RedfishConnection created =
        new RedfishConnection(
            client, address, endpoint.credentialsName(), credentials, destination);
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
      PowerState target,
      Deadline deadline)
      throws PowerException {
    ObjectNode body = JSON.createObjectNode().put("ResetType", type);
    String action = connection.resolve(system.resetTarget(connection.systemUri(deadline)));
    for (int attempt = 1; ; attempt++) {
      RedfishResponse response = connection.send("POST", action, body, Map.of(), deadline);
      if (response.ok()) {
        return;
      }
      int code = response.code();
      if ((code == 400 || code == 409) && target != null) {
        PowerState now = SystemView.of(readSystem(connection, deadline)).powerState();
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

  private static PowerState heading(PowerState target) {
    return target == PowerState.ON ? PowerState.POWERING_ON : PowerState.POWERING_OFF;
  }

  /**
   * Polls until the system reports {@code target} or {@code pollUntil} passes. Each read may run
   * until {@code requestDeadline} (the caller's whole deadline): a read started just before the end
   * of a shorter polling window (the graceful timeout) is not cut off and turned into an error, it
   * only ends the polling.
   */
  private boolean waitFor(
      RedfishConnection connection, PowerState target, Deadline pollUntil, Deadline requestDeadline)
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

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() && !value.asText().isBlank() ? value.asText() : null;
  }
}
