package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPacer;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.Sleeper;
import io.bamel.power.TlsSettings;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.sim.SimConnection;
import io.bamel.power.sim.SimOperation;
import io.bamel.power.sim.SimSystemConfig;
import io.bamel.power.sim.SimulatedBmcFleet;
import io.bamel.power.sim.SimulatedSystem;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.power.tls.KeyShareGroups;
import io.bamel.power.tls.TlsConfigurer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redfish driver's transport against simulated BMCs that close connections the way real ones do
 * (issue 16, findings 1 and 9): idle keep-alive connections closed after a few hundred
 * milliseconds, HTTP/1.0 closing after every answer, and many calls at once to one BMC.
 */
class RedfishTransportIT {

  private static final String PASSWORD = "transport-pw";

  @TempDir static Path dir;
  static SimulatedBmcFleet tls;
  static SimulatedBmcFleet plain;
  static Path caFile;
  static CredentialStore store;
  static int next;

  RedfishDriver driver;

  @BeforeAll
  static void startFleets() throws Exception {
    tls = SimulatedBmcFleet.start(true);
    plain = SimulatedBmcFleet.start(false);
    caFile = tls.writeCaBundle(dir.resolve("ca.pem"));
    Path bmc = CredentialDirs.write(dir.resolve("secrets"), "bmc", "admin", PASSWORD);
    Files.writeString(bmc.resolve(CredentialStore.ALLOWED_HOSTS), "127.0.0.1\nhttp://127.0.0.1\n");
    store = new CredentialStore(dir.resolve("secrets"));
  }

  @AfterAll
  static void stopFleets() {
    tls.close();
    plain.close();
  }

  @BeforeEach
  void setUp() {
    driver = driver(RedfishConfig.defaults());
  }

  private static RedfishDriver driver(RedfishConfig base) {
    return FastRedfishDrivers.fast(store, base, Duration.ofMillis(600));
  }

  @AfterEach
  void tearDown() {
    driver.close();
    tls.closeNextConnections(0);
    plain.closeNextConnections(0);
  }

  private static SimulatedSystem add(SimulatedBmcFleet fleet, SimConnection connection) {
    return fleet.add(
        "t" + next++,
        SimSystemConfig.defaults()
            .withCredentials("admin", PASSWORD)
            .withPowerDelay(Duration.ofMillis(150))
            .withConnection(connection));
  }

  private static BmcEndpoint endpoint(SimulatedBmcFleet fleet, SimulatedSystem system) {
    TlsSettings settings = fleet == tls ? TlsSettings.caBundle(caFile) : TlsSettings.DEFAULT;
    return new BmcEndpoint(fleet.address(system.id()), "bmc", settings, Map.of());
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }

  /**
   * Nagle's algorithm off on every connection to a BMC: with it on, each new TLS connection stalled
   * on the BMC's delayed acknowledgement (31 of a simulated BMC's 34 ms per handshake).
   */
  @Test
  void connectionsToBmcsHaveNagleOff() throws Exception {
    try (java.net.Socket socket = driver.baseClient().socketFactory().createSocket()) {
      assertThat(socket.getTcpNoDelay()).isTrue();
    }
  }

  @Test
  void readsSurviveABmcThatClosesIdleConnectionsAfter200Ms() throws Exception {
    SimulatedSystem system = add(tls, SimConnection.keepAlive(Duration.ofMillis(200)));
    BmcEndpoint endpoint = endpoint(tls, system);
    for (int i = 0; i < 4; i++) {
      assertThat(driver.bmcPowerState(endpoint, deadline())).isEqualTo(BmcPowerState.OFF);
      Thread.sleep(400); // the BMC closes the pooled connection meanwhile
    }
    assertThat(system.count(SimOperation.SYSTEM)).isEqualTo(4);
  }

  /**
   * OkHttp checks a pooled connection's socket before a {@code GET} never, so a BMC that closed it
   * makes the read fail first and go again on a new connection. The first such failure teaches the
   * BMC's idle timeout; after it, the pool drops the BMC's idle connections in time, so each read
   * opens exactly one new connection and none fails first.
   */
  @Test
  void aBmcClosingIdleConnectionsAfter200MsGetsOneNewConnectionPerReadAndNoFailedAttempt()
      throws Exception {
    SimulatedSystem system = add(plain, SimConnection.keepAlive(Duration.ofMillis(200)));
    RedfishHttp http = http();
    Request get = new Request.Builder().url(plain.serviceRoot(system.id())).build();
    http.execute(get, "GET root", deadline());
    Thread.sleep(300); // the BMC closes the pooled connection meanwhile
    http.execute(get, "GET root", deadline()); // fails on it, goes again, learns
    assertThat(http.failedAttempts()).isEqualTo(1);
    assertThat(http.idleLimit()).isLessThan(Duration.ofMillis(200));

    long accepted = plain.connectionsAccepted();
    for (int i = 0; i < 3; i++) {
      Thread.sleep(300);
      assertThat(http.execute(get, "GET root", deadline()).code()).isEqualTo(200);
    }

    assertThat(http.failedAttempts()).isEqualTo(1);
    assertThat(plain.connectionsAccepted() - accepted).isEqualTo(3);
    assertThat(system.count(SimOperation.SERVICE_ROOT)).isEqualTo(5);
  }

  /**
   * A BMC that announces its idle timeout ({@code Keep-Alive: timeout=1}) teaches it with its first
   * answer: the pool drops the idle connection after 500 ms, so a read 1.2 s later goes on a new
   * connection without first failing on the closed one.
   */
  @Test
  void aBmcAnnouncingItsIdleTimeoutIsNeverSentARequestOnAConnectionItClosed() throws Exception {
    SimulatedSystem system =
        add(plain, SimConnection.keepAlive(Duration.ofSeconds(1)).withIdleTimeoutAnnounced());
    RedfishHttp http = http();
    Request get = new Request.Builder().url(plain.serviceRoot(system.id())).build();
    http.execute(get, "GET root", deadline());
    assertThat(http.idleLimit()).isEqualTo(Duration.ofMillis(500));

    Thread.sleep(1200); // the BMC closes the idle connection meanwhile
    assertThat(http.execute(get, "GET root", deadline()).code()).isEqualTo(200);
    assertThat(http.failedAttempts()).isZero();
  }

  @Test
  void aBmcKeepingConnectionsServesEveryReadOnOneConnection() throws Exception {
    SimulatedSystem system = add(plain, SimConnection.DEFAULT);
    RedfishHttp http = http();
    Request get = new Request.Builder().url(plain.serviceRoot(system.id())).build();
    long accepted = plain.connectionsAccepted();
    for (int i = 0; i < 5; i++) {
      http.execute(get, "GET root", deadline());
      Thread.sleep(20);
    }

    assertThat(plain.connectionsAccepted() - accepted).isEqualTo(1);
    assertThat(http.failedAttempts()).isZero();
    assertThat(http.idleLimit()).isEqualTo(RedfishConfig.defaults().keepAlive());
  }

  /**
   * A read made longer after the BMC's last request than the idle limit (the node controller's
   * periodic read) goes on a connection of its own, closed after the answer: the pool keeps nothing
   * for the BMC, so OkHttp's task runner has nothing of it to scan while it waits for the next
   * pass. A burst after it (reads 20 ms apart) is served on one pooled connection again.
   */
  @Test
  void aLoneReadGoesOnAConnectionOfItsOwnAndABurstOnAPooledOne() throws Exception {
    SimulatedSystem system = add(plain, SimConnection.DEFAULT);
    RedfishHttp http =
        new RedfishHttp(
            new OkHttpClient.Builder().retryOnConnectionFailure(false).build(),
            Duration.ofMillis(300),
            new BmcPacer(4, Duration.ZERO, Clock.systemUTC(), Sleeper.SYSTEM),
            "lone-test");
    Request get = new Request.Builder().url(plain.serviceRoot(system.id())).build();
    http.execute(get, "GET root", deadline()); // the first: the start of a burst, pooled
    assertThat(http.pooledConnections()).isEqualTo(1);
    Thread.sleep(800); // the pool's 300 ms keep-alive ends meanwhile

    long accepted = plain.connectionsAccepted();
    assertThat(http.execute(get, "GET root", deadline()).code()).isEqualTo(200);
    assertThat(plain.connectionsAccepted() - accepted).isEqualTo(1);
    assertThat(http.pooledConnections()).isZero();

    for (int i = 0; i < 3; i++) {
      http.execute(get, "GET root", deadline());
      Thread.sleep(20);
    }
    assertThat(plain.connectionsAccepted() - accepted).isEqualTo(2);
    assertThat(http.pooledConnections()).isEqualTo(1);
    assertThat(http.failedAttempts()).isZero();
  }

  @Test
  void aFleetWithAPortPerSystemServesEachBmcOnItsOwnAddress() throws Exception {
    try (SimulatedBmcFleet own = SimulatedBmcFleet.startPortPerSystem(false)) {
      List<SimulatedSystem> systems =
          own.addSystems(2, "own-", SimSystemConfig.defaults().withCredentials("admin", PASSWORD));
      List<Integer> ports = new ArrayList<>();
      for (SimulatedSystem system : systems) {
        ports.add(URI.create(own.address(system.id())).getPort());
        BmcEndpoint endpoint =
            new BmcEndpoint(own.address(system.id()), "bmc", TlsSettings.DEFAULT, Map.of());
        assertThat(driver.bmcPowerState(endpoint, deadline())).isEqualTo(BmcPowerState.OFF);
        assertThat(system.count(SimOperation.SYSTEM)).isEqualTo(1);
      }

      assertThat(ports).doesNotHaveDuplicates().doesNotContain(own.port());
      assertThat(own.connectionsAccepted()).isGreaterThanOrEqualTo(2);
    }
  }

  /**
   * A BMC closing idle connections after 200 ms gets a new TLS connection per read; each resumes
   * the BMC's last TLS session (one full handshake for the BMC, the rest resumed, as against a real
   * BMC), also across the pool the driver rebuilt when it learnt the idle timeout and across the
   * connections of their own that the login goes on: every client of the driver for one trust
   * setting shares one TLS context and so one session cache.
   */
  @Test
  void newConnectionsToABmcResumeItsTlsSessionAcrossThePoolRebuiltForItsIdleTimeout()
      throws Exception {
    try (SimulatedBmcFleet own = SimulatedBmcFleet.startPortPerSystem(true)) {
      SimulatedSystem system =
          own.add(
              "resume",
              SimSystemConfig.defaults()
                  .withCredentials("admin", PASSWORD)
                  .withConnection(SimConnection.keepAlive(Duration.ofMillis(200))));
      TlsSettings settings = TlsSettings.caBundle(own.writeCaBundle(dir.resolve("resume.pem")));
      BmcEndpoint endpoint = new BmcEndpoint(own.address(system.id()), "bmc", settings, Map.of());
      for (int i = 0; i < 4; i++) {
        assertThat(driver.bmcPowerState(endpoint, deadline())).isEqualTo(BmcPowerState.OFF);
        Thread.sleep(300); // the BMC closes the idle connection meanwhile
      }

      assertThat(own.connectionsAccepted()).isGreaterThanOrEqualTo(5);
      assertThat(own.fullHandshakes()).isEqualTo(1);
    }
  }

  /**
   * The simulator counts what it is asked to: a client with a TLS context of its own per connection
   * (so no session cache) makes a full handshake every time; one context resumes.
   */
  @Test
  void theSimulatorCountsFullHandshakesNotResumedOnes() throws Exception {
    SimulatedSystem system = add(tls, SimConnection.DEFAULT);
    Request get = new Request.Builder().url(tls.serviceRoot(system.id())).build();
    long full = tls.fullHandshakes();
    for (int i = 0; i < 2; i++) {
      OkHttpClient own =
          TlsConfigurer.apply(new OkHttpClient.Builder(), TlsSettings.caBundle(caFile)).build();
      try (var response = own.newCall(get).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
      own.connectionPool().evictAll();
    }
    assertThat(tls.fullHandshakes() - full).isEqualTo(2);

    OkHttpClient shared =
        TlsConfigurer.apply(new OkHttpClient.Builder(), TlsSettings.caBundle(caFile)).build();
    for (int i = 0; i < 3; i++) {
      try (var response = shared.newCall(get).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
      shared.connectionPool().evictAll();
    }
    assertThat(tls.fullHandshakes() - full).isEqualTo(3);
  }

  /**
   * Once a BMC has completed a TLS 1.3 handshake, new connections to it offer one key share instead
   * of the JDK's two (the next test shows on the wire that P-256 is no longer offered); they still
   * resume its session, and no request fails.
   */
  @Test
  void newConnectionsToATls13BmcOfferOneKeyShareAndStillResume() throws Exception {
    try (SimulatedBmcFleet own = SimulatedBmcFleet.startPortPerSystem(true)) {
      SimulatedSystem system = own.add("one-share", config(SimConnection.closeAnnounced()));
      RedfishHttp http = tlsHttp(own.writeCaBundle(dir.resolve("one-share.pem")));
      Request get = new Request.Builder().url(own.serviceRoot(system.id())).build();
      assertThat(http.keyShareOffer()).isEqualTo(KeyShareGroups.Offer.LEARNING);
      for (int i = 0; i < 3; i++) {
        assertThat(http.execute(get, "GET root", deadline()).code()).isEqualTo(200);
      }

      assertThat(http.keyShareOffer()).isEqualTo(KeyShareGroups.Offer.ONE_SHARE);
      assertThat(http.failedAttempts()).isZero();
      assertThat(own.connectionsAccepted()).isEqualTo(3);
      assertThat(own.fullHandshakes()).isEqualTo(1);
    }
  }

  /**
   * A BMC whose TLS library lacks X25519 (it accepts P-256 and P-384 only) refuses the handshake
   * offering the X25519 family alone: that request is sent again offering every group, and so is
   * every later connection; no request fails.
   */
  @Test
  void aBmcWithoutX25519IsOfferedEveryGroupAgainAfterOneRefusedHandshake() throws Exception {
    try (SimulatedBmcFleet own = SimulatedBmcFleet.startPortPerSystem(true)) {
      own.acceptOnlyGroups("secp256r1", "secp384r1");
      SimulatedSystem system = own.add("nist-only", config(SimConnection.closeAnnounced()));
      RedfishHttp http = tlsHttp(own.writeCaBundle(dir.resolve("nist-only.pem")));
      Request get = new Request.Builder().url(own.serviceRoot(system.id())).build();
      assertThat(http.execute(get, "GET root", deadline()).code()).isEqualTo(200);
      assertThat(http.keyShareOffer()).isEqualTo(KeyShareGroups.Offer.ONE_SHARE);

      assertThat(http.execute(get, "GET root", deadline()).code()).isEqualTo(200);
      assertThat(http.failedAttempts()).isEqualTo(1);
      assertThat(http.keyShareOffer()).isEqualTo(KeyShareGroups.Offer.ALL);
      for (int i = 0; i < 2; i++) {
        assertThat(http.execute(get, "GET root", deadline()).code()).isEqualTo(200);
      }

      assertThat(http.failedAttempts()).isEqualTo(1);
      assertThat(system.count(SimOperation.SERVICE_ROOT)).isEqualTo(4);
    }
  }

  /**
   * The same BMC without X25519, closing idle connections after 200 ms: the read that finds its
   * pooled connection closed goes again on a new connection, whose handshake offering one key share
   * is refused, and goes once more; every read succeeds, and so does a reset.
   */
  @Test
  void readsAndResetsSurviveABmcWithoutX25519ThatClosesIdleConnections() throws Exception {
    try (SimulatedBmcFleet own = SimulatedBmcFleet.startPortPerSystem(true)) {
      own.acceptOnlyGroups("secp256r1");
      SimulatedSystem system =
          own.add("nist-idle", config(SimConnection.keepAlive(Duration.ofMillis(200))));
      TlsSettings settings = TlsSettings.caBundle(own.writeCaBundle(dir.resolve("nist-idle.pem")));
      BmcEndpoint endpoint = new BmcEndpoint(own.address(system.id()), "bmc", settings, Map.of());
      for (int i = 0; i < 3; i++) {
        assertThat(driver.bmcPowerState(endpoint, deadline())).isEqualTo(BmcPowerState.OFF);
        Thread.sleep(300); // the BMC closes the idle connection meanwhile
      }
      driver.powerOn(endpoint, deadline());

      assertThat(system.count(SimOperation.SYSTEM)).isGreaterThanOrEqualTo(3);
      assertThat(system.resets("On")).isEqualTo(1);
    }
  }

  private static SimSystemConfig config(SimConnection connection) {
    return SimSystemConfig.defaults().withCredentials("admin", PASSWORD).withConnection(connection);
  }

  private static RedfishHttp tlsHttp(Path ca) throws Exception {
    return new RedfishHttp(
        TlsConfigurer.apply(
                new OkHttpClient.Builder().retryOnConnectionFailure(false),
                TlsSettings.caBundle(ca))
            .build(),
        RedfishConfig.defaults().keepAlive(),
        new BmcPacer(4, Duration.ZERO, Clock.systemUTC(), Sleeper.SYSTEM),
        "tls-test");
  }

  private static RedfishHttp http() {
    return new RedfishHttp(
        new OkHttpClient.Builder().retryOnConnectionFailure(false).build(),
        RedfishConfig.defaults().keepAlive(),
        new BmcPacer(4, Duration.ZERO, Clock.systemUTC(), Sleeper.SYSTEM),
        "http-test");
  }

  @Test
  void aResetAfterTheIdleConnectionWasClosedIsSentOnceAndItsPollingWorks() throws Exception {
    SimulatedSystem system = add(tls, SimConnection.keepAlive(Duration.ofMillis(200)));
    BmcEndpoint endpoint = endpoint(tls, system);
    driver.bmcPowerState(endpoint, deadline());
    Thread.sleep(400);

    driver.powerOn(endpoint, deadline());
    Thread.sleep(400);
    driver.powerOff(endpoint, PowerOffMode.GRACEFUL, deadline());

    assertThat(system.resets("On")).isEqualTo(1);
    assertThat(system.resets("GracefulShutdown")).isEqualTo(1);
    assertThat(system.powerState()).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void anHttp10ServiceThatClosesAfterEveryAnswerWorks() throws Exception {
    SimulatedSystem system = add(plain, SimConnection.http10());
    BmcEndpoint endpoint = endpoint(plain, system);

    for (int i = 0; i < 3; i++) {
      assertThat(driver.bmcPowerState(endpoint, deadline())).isEqualTo(BmcPowerState.OFF);
    }
    driver.powerOn(endpoint, deadline());
    driver.powerOff(endpoint, PowerOffMode.FORCE, deadline());
    assertThat(driver.inspect(endpoint, deadline()).macAddresses()).hasSize(1);

    assertThat(system.resets("On")).isEqualTo(1);
    assertThat(system.resets("ForceOff")).isEqualTo(1);
  }

  @Test
  void aServiceAnnouncingConnectionCloseWorks() throws Exception {
    SimulatedSystem system = add(tls, SimConnection.closeAnnounced());
    BmcEndpoint endpoint = endpoint(tls, system);
    for (int i = 0; i < 3; i++) {
      assertThat(driver.bmcPowerState(endpoint, deadline())).isEqualTo(BmcPowerState.OFF);
    }
    driver.powerOn(endpoint, deadline());
    assertThat(system.resets("On")).isEqualTo(1);
  }

  @Test
  void aResetWhoseConnectionFailedBeforeAnyByteWasWrittenIsSentAgainOnce() throws Exception {
    SimulatedSystem system = add(tls, SimConnection.DEFAULT);
    BmcEndpoint endpoint = endpoint(tls, system);
    driver.bmcPowerState(endpoint, deadline()); // discovery, login, a pooled connection

    tls.closeNextConnections(1); // the reset's new connection dies in its TLS handshake
    driver.powerOn(endpoint, deadline());

    assertThat(system.resets("On")).isEqualTo(1);
  }

  @Test
  void aResetWhoseRequestMayHaveReachedTheBmcIsNotSentAgain() throws Exception {
    SimulatedSystem system = add(plain, SimConnection.DEFAULT);
    BmcEndpoint endpoint = endpoint(plain, system);
    driver.bmcPowerState(endpoint, deadline());

    plain.closeNextConnections(1); // plain HTTP: the request is written before the close is seen
    assertThatThrownBy(() -> driver.powerOn(endpoint, deadline()))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.UNREACHABLE));
    assertThat(system.count(SimOperation.RESET)).isZero();

    driver.powerOn(endpoint, deadline()); // the next call works
    assertThat(system.resets("On")).isEqualTo(1);
  }

  @Test
  void oneBmcNeverGetsMoreThanTheConfiguredConcurrentRequests() throws Exception {
    SimulatedSystem system = add(tls, SimConnection.DEFAULT);
    BmcEndpoint endpoint = endpoint(tls, system);
    RedfishDriver limited = driver(RedfishConfig.defaults().withPerBmcLimits(2, Duration.ZERO));
    try {
      limited.bmcPowerState(endpoint, deadline());
      system.faults().latency(Duration.ofMillis(100));
      system.clearRequestStats();
      ExecutorService pool = Executors.newFixedThreadPool(12);
      try {
        List<Callable<BmcPowerState>> calls = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
          calls.add(() -> limited.bmcPowerState(endpoint, deadline()));
        }
        for (Future<BmcPowerState> f : pool.invokeAll(calls)) {
          assertThat(f.get()).isEqualTo(BmcPowerState.OFF);
        }
      } finally {
        pool.shutdown();
      }
      assertThat(system.maxConcurrentRequests()).isBetween(1, 2);
    } finally {
      system.faults().clear();
      limited.close();
    }
  }

  /**
   * The pacer starts the k-th of concurrent requests to one BMC no earlier than k - 1 intervals
   * after the first could start, so the k-th arrival at the BMC is no earlier than that either,
   * however loaded the machine. (The gap between two consecutive arrivals is not bounded below: it
   * also holds the scheduling delay between each turn and its request's arrival, which on a machine
   * at load 15 to 50 made gaps of 3 to 33 ms against an 80 ms interval.) Without the spacing the
   * six requests, four at a time, arrive within a few milliseconds.
   */
  @Test
  void requestsToOneBmcAreSpacedByTheMinimumInterval() throws Exception {
    SimulatedSystem system = add(tls, SimConnection.DEFAULT);
    BmcEndpoint endpoint = endpoint(tls, system);
    RedfishDriver spaced =
        driver(RedfishConfig.defaults().withPerBmcLimits(4, Duration.ofMillis(80)));
    try {
      spaced.bmcPowerState(endpoint, deadline());
      system.clearRequestStats();
      long start = System.nanoTime();
      ExecutorService pool = Executors.newFixedThreadPool(6);
      try {
        List<Callable<BmcPowerState>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          calls.add(() -> spaced.bmcPowerState(endpoint, deadline()));
        }
        pool.invokeAll(calls);
      } finally {
        pool.shutdown();
      }
      List<Long> arrivals = system.requestArrivalNanos();
      assertThat(arrivals).hasSizeGreaterThanOrEqualTo(6);
      for (int k = 0; k < arrivals.size(); k++) {
        // 5 ms for sleeps rounded to the millisecond and the pacer's wall clock against nanoTime
        assertThat(Duration.ofNanos(arrivals.get(k) - start))
            .as("arrival %d", k + 1)
            .isGreaterThanOrEqualTo(Duration.ofMillis(80L * k - 5));
      }
    } finally {
      spaced.close();
    }
  }
}
