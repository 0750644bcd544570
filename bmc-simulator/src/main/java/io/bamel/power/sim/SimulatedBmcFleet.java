package io.bamel.power.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fleet of simulated Redfish BMCs served by one HTTP(S) server on loopback. Each system has its
 * own service root at {@code {base}/bmc/{id}/redfish/v1} (its {@link #address(String) address}),
 * serving DMTF's published tree of its {@link SimProfile} with its own state overlaid; its
 * ComputerSystem is at {@link #systemUri(String)}.
 *
 * <pre>{@code
 * try (SimulatedBmcFleet fleet = SimulatedBmcFleet.start(true)) {
 *   fleet.addSystems(1000, "node-", SimSystemConfig.defaults().withPowerDelay(ofMillis(300)));
 *   fleet.system("node-0001").faults().latency(Duration.ofMillis(100));
 *   String address = fleet.address("node-0001");  // https://127.0.0.1:PORT/bmc/node-0001
 *   ...
 *   fleet.system("node-0001").resets("On");        // resets of type On it accepted
 * }
 * }</pre>
 *
 * <p>{@link #startPortPerSystem(boolean)} serves each system on a loopback port of its own instead,
 * as real BMCs each have their own address (there also at the port's root, {@link
 * #rootAddress(String)}): a client then keeps connections and TLS sessions per BMC (a TLS client
 * caches one session per host and port, so a thousand systems behind one port would share one
 * cached session between all their connections).
 *
 * <p>Requests are served on virtual threads, so latency faults on many systems overlap as they
 * would on many real BMCs. Each system answers in the shape of its {@link SimProfile} and treats
 * the connection of each answer as its {@link SimConnection} says (by default keep-alive, closed
 * after 30 s idle).
 */
public final class SimulatedBmcFleet implements AutoCloseable {

  private final Map<String, SimulatedSystem> systems = new ConcurrentHashMap<>();
  private final Map<String, SimHttpServer> ownServers = new ConcurrentHashMap<>();
  private final SimHttpServer server;
  private final SelfSignedCertificate certificate;
  private final Clock clock;
  private final RedfishSimHandler handler;
  private final boolean portPerSystem;
  private volatile String[] acceptedGroups;

  private SimulatedBmcFleet(boolean tls, int port, Clock clock, boolean portPerSystem)
      throws IOException {
    this.clock = clock;
    this.portPerSystem = portPerSystem;
    certificate = tls ? SelfSignedCertificate.generate() : null;
    handler = new RedfishSimHandler(systems);
    server = listen(port, 1024, handler);
  }

  private SimHttpServer listen(int port, int backlog, SimHttpServer.Handler served)
      throws IOException {
    InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    SimHttpServer listening =
        new SimHttpServer(
            bind, certificate == null ? null : certificate.serverContext(), backlog, served);
    String[] groups = acceptedGroups;
    if (groups != null) {
      listening.acceptOnlyGroups(groups);
    }
    return listening;
  }

  /**
   * Makes every BMC of the fleet, those added later too, negotiate TLS only with the key exchange
   * {@code groups}, as a BMC whose TLS library lacks X25519 ({@code "secp256r1", "secp384r1"}).
   */
  public void acceptOnlyGroups(String... groups) {
    acceptedGroups = groups.clone();
    server.acceptOnlyGroups(groups);
    ownServers.values().forEach(own -> own.acceptOnlyGroups(groups));
  }

  /** Starts an empty fleet on a free loopback port, with self-signed TLS or plain HTTP. */
  public static SimulatedBmcFleet start(boolean tls) {
    return start(tls, 0, Clock.systemUTC());
  }

  /**
   * Starts an empty fleet on {@code port} (0 for a free one); power transitions are timed by {@code
   * clock}.
   */
  public static SimulatedBmcFleet start(boolean tls, int port, Clock clock) {
    return start(tls, port, clock, false);
  }

  /**
   * Starts an empty fleet that serves each system it gets on a free loopback port of its own (its
   * {@link #address(String)} names that port), as real BMCs each have their own address.
   */
  public static SimulatedBmcFleet startPortPerSystem(boolean tls) {
    return start(tls, 0, Clock.systemUTC(), true);
  }

  private static SimulatedBmcFleet start(
      boolean tls, int port, Clock clock, boolean portPerSystem) {
    try {
      return new SimulatedBmcFleet(tls, port, clock, portPerSystem);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the simulated BMC fleet", e);
    }
  }

  /** Adds a system (replacing one of the same id); returns it. */
  public SimulatedSystem add(String id, SimSystemConfig config) {
    SimulatedSystem system = new SimulatedSystem(id, config, clock);
    if (portPerSystem && !ownServers.containsKey(id)) {
      try {
        ownServers.put(id, listen(0, 64, new RedfishSimHandler(systems, id)));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot listen for simulated system " + id, e);
      }
    }
    systems.put(id, system);
    return system;
  }

  /** Adds {@code count} systems named {@code prefix0001}, {@code prefix0002}, ... */
  public List<SimulatedSystem> addSystems(int count, String prefix, SimSystemConfig config) {
    List<SimulatedSystem> added = new ArrayList<>(count);
    for (int i = 1; i <= count; i++) {
      added.add(add(String.format(Locale.ROOT, "%s%04d", prefix, i), config));
    }
    return added;
  }

  /** The system with {@code id}. */
  public SimulatedSystem system(String id) {
    SimulatedSystem system = systems.get(id);
    if (system == null) {
      throw new NoSuchElementException("no simulated system " + id);
    }
    return system;
  }

  /** Every system. */
  public List<SimulatedSystem> systems() {
    return List.copyOf(systems.values());
  }

  /** {@code http(s)://127.0.0.1:PORT}: the fleet's shared port. */
  public String baseUrl() {
    return baseUrl(port());
  }

  private String baseUrl(int port) {
    return (certificate != null ? "https" : "http") + "://127.0.0.1:" + port;
  }

  /** The port served on. */
  public int port() {
    return server.port();
  }

  /**
   * Closes each of the next {@code count} new connections right after accepting it, before a byte
   * is read (over TLS the handshake fails): a request on such a connection provably never reached
   * the BMC. On the shared port only, not on the ports of {@link #startPortPerSystem}.
   */
  public void closeNextConnections(int count) {
    server.closeNextConnections(count);
  }

  /**
   * How many TCP connections the fleet accepted so far, on every port (each TLS connection is one
   * handshake).
   */
  public long connectionsAccepted() {
    long accepted = server.connectionsAccepted();
    for (SimHttpServer own : ownServers.values()) {
      accepted += own.connectionsAccepted();
    }
    return accepted;
  }

  /**
   * How many TLS handshakes on every port were full ones (the server signed with its key), not
   * resumptions of an earlier session; 0 when serving plain HTTP. A client that resumes its
   * sessions, as against a real BMC, opens many connections and makes few full handshakes.
   */
  public long fullHandshakes() {
    long full = server.fullHandshakes();
    for (SimHttpServer own : ownServers.values()) {
      full += own.fullHandshakes();
    }
    return full;
  }

  /**
   * The BMC address of a system: the driver finds the service root below it. On the system's own
   * port when the fleet gives each system one.
   */
  public String address(String id) {
    SimHttpServer own = ownServers.get(id);
    return (own == null ? baseUrl() : baseUrl(own.port())) + "/bmc/" + id;
  }

  /**
   * {@code http(s)://127.0.0.1:PORT} of a system on a port of its own, which also serves it at the
   * root ({@code /redfish/v1}, {@code /redfish}) as a real BMC does: for clients that take only a
   * host and port (DMTF's redfishtool).
   *
   * @throws IllegalStateException when the fleet serves every system on one port
   */
  public String rootAddress(String id) {
    system(id);
    SimHttpServer own = ownServers.get(id);
    if (own == null) {
      throw new IllegalStateException("the fleet serves every system on one port: use address()");
    }
    return baseUrl(own.port());
  }

  /** The service root URL of a system. */
  public String serviceRoot(String id) {
    return address(id) + SimVocabulary.WIRE.root();
  }

  /** The ComputerSystem URI of a system (its profile's tree says where). */
  public String systemUri(String id) {
    return address(id) + system(id).tree().systemPath();
  }

  /** The self-signed certificate, when serving TLS. */
  public Optional<SelfSignedCertificate> certificate() {
    return Optional.ofNullable(certificate);
  }

  /** Writes the certificate as a PEM CA bundle to {@code file}; returns the file. */
  public Path writeCaBundle(Path file) throws IOException {
    if (certificate == null) {
      throw new IllegalStateException("the fleet serves plain HTTP");
    }
    return certificate.writePem(file);
  }

  /** Stops the servers. */
  @Override
  public void close() {
    ownServers.values().forEach(SimHttpServer::close);
    server.close();
  }
}
