package io.bamel.power.proxmox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerException;
import io.bamel.power.PowerOffMode;
import io.bamel.power.Sleeper;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Proxmox VE driver against WireMock answering with the shapes of the Proxmox VE API. */
class ProxmoxDriverIT {

  private static final String TOKEN = "root@pam!bamel=3f1c9a52-uuid-secret";
  private static final String VM = "/api2/json/nodes/pve1/qemu/101";
  private static final String UPID_START =
      "UPID:pve1:0000A1B2:0012C3D4:65F00000:qmstart:101:root@pam!bamel:";
  private static final String UPID_SHUTDOWN =
      "UPID:pve1:0000A1B3:0012C3D5:65F00001:qmshutdown:101:root@pam!bamel:";
  private static final String UPID_STOP =
      "UPID:pve1:0000A1B4:0012C3D6:65F00002:qmstop:101:root@pam!bamel:";

  @TempDir Path dir;
  WireMockServer pve;
  ProxmoxDriver driver;
  BmcEndpoint vm;

  @BeforeEach
  void setUp() throws Exception {
    pve = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    pve.start();
    Path secret = Files.createDirectories(dir.resolve("pve-token"));
    Files.writeString(secret.resolve("token"), TOKEN + "\n");
    Files.writeString(secret.resolve(CredentialStore.ALLOWED_HOSTS), "http://127.0.0.1\n");
    driver =
        new ProxmoxDriver(
            new CredentialStore(dir),
            ProxmoxConfig.defaults().withTiming(Duration.ofMillis(400), Duration.ofMillis(20)),
            Sleeper.SYSTEM);
    vm =
        new BmcEndpoint(
            "http://127.0.0.1:" + pve.port(),
            "pve-token",
            TlsSettings.DEFAULT,
            Map.of(ProxmoxDriver.OPTION_NODE, "pve1", ProxmoxDriver.OPTION_VMID, "101"));
  }

  @AfterEach
  void tearDown() {
    driver.close();
    pve.stop();
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(5));
  }

  private void status(String status) {
    pve.stubFor(
        get(urlPathEqualTo(VM + "/status/current"))
            .withHeader("Authorization", equalTo("PVEAPIToken=" + TOKEN))
            .willReturn(
                okJson(
                    "{\"data\":{\"status\":\""
                        + status
                        + "\",\"qmpstatus\":\""
                        + status
                        + "\",\"vmid\":101,\"name\":\"worker-1\",\"cpus\":4,\"maxmem\":8589934592}}")));
  }

  private void task(String upid, String... states) {
    String scenario = "task " + upid;
    String current = Scenario.STARTED;
    for (int i = 0; i < states.length; i++) {
      String next = i + 1 < states.length ? "poll-" + (i + 1) : current;
      String body =
          states[i].equals("running")
              ? "{\"data\":{\"status\":\"running\",\"upid\":\"" + upid + "\",\"type\":\"qmstart\"}}"
              : "{\"data\":{\"status\":\"stopped\",\"exitstatus\":\""
                  + states[i]
                  + "\",\"upid\":\""
                  + upid
                  + "\"}}";
      pve.stubFor(
          get(urlPathEqualTo("/api2/json/nodes/pve1/tasks/" + upid + "/status"))
              .inScenario(scenario)
              .whenScenarioStateIs(current)
              .willSetStateTo(next)
              .willReturn(okJson(body)));
      current = next;
    }
  }

  private void action(String action, String upid) {
    pve.stubFor(
        post(urlPathEqualTo(VM + "/status/" + action))
            .willReturn(okJson("{\"data\":\"" + upid + "\"}")));
  }

  @Test
  void connectionsToHostsHaveNagleOff() throws Exception {
    try (java.net.Socket socket = driver.baseClient().socketFactory().createSocket()) {
      assertThat(socket.getTcpNoDelay()).isTrue();
    }
  }

  @Test
  void readsTheStateWithTheApiToken() throws Exception {
    status("running");
    assertThat(driver.bmcPowerState(vm, deadline())).isEqualTo(BmcPowerState.ON);
    pve.resetMappings();
    status("stopped");
    assertThat(driver.bmcPowerState(vm, deadline())).isEqualTo(BmcPowerState.OFF);
  }

  @Test
  void startsAndPollsTheTaskUntilItEnds() throws Exception {
    status("stopped");
    action("start", UPID_START);
    task(UPID_START, "running", "running", "OK");

    driver.powerOn(vm, deadline());

    pve.verify(1, postRequestedFor(urlPathEqualTo(VM + "/status/start")));
    pve.verify(
        3,
        getRequestedFor(urlPathEqualTo("/api2/json/nodes/pve1/tasks/" + UPID_START + "/status")));
  }

  @Test
  void aRunningVmIsNotStartedAgain() throws Exception {
    status("running");
    driver.powerOn(vm, deadline());
    pve.verify(0, postRequestedFor(urlPathEqualTo(VM + "/status/start")));
  }

  @Test
  void shutsDownGracefullyAskingProxmoxToStopTheVmAtTheEndOfTheWindow() throws Exception {
    pve.stubFor(
        get(urlPathEqualTo(VM + "/status/current"))
            .inScenario("vm")
            .whenScenarioStateIs(Scenario.STARTED)
            .willSetStateTo("stopping")
            .willReturn(okJson("{\"data\":{\"status\":\"running\"}}")));
    pve.stubFor(
        get(urlPathEqualTo(VM + "/status/current"))
            .inScenario("vm")
            .whenScenarioStateIs("stopping")
            .willReturn(okJson("{\"data\":{\"status\":\"stopped\"}}")));
    action("shutdown", UPID_SHUTDOWN);
    task(UPID_SHUTDOWN, "running", "OK");

    driver.powerOff(vm, PowerOffMode.GRACEFUL, deadline());

    // the 400 ms graceful window, rounded up to Proxmox's whole seconds
    pve.verify(
        1,
        postRequestedFor(urlPathEqualTo(VM + "/status/shutdown"))
            .withFormParam("timeout", equalTo("1"))
            .withFormParam("forceStop", equalTo("1")));
    pve.verify(0, postRequestedFor(urlPathEqualTo(VM + "/status/stop")));
  }

  /**
   * A stop without {@code overrule-shutdown} while the shutdown task holds the VM's lock: Proxmox
   * waits for the lock and gives up, as it does for real.
   */
  private void stopThatNeedsTheLock() {
    pve.stubFor(
        post(urlPathEqualTo(VM + "/status/stop"))
            .withFormParam("overrule-shutdown", absent())
            .willReturn(
                aResponse()
                    .withStatus(500)
                    .withStatusMessage(
                        "can't lock file '/var/lock/qemu-server/lock-101.conf' - got timeout")
                    .withBody("{\"data\":null}")));
    pve.stubFor(
        post(urlPathEqualTo(VM + "/status/stop"))
            .withFormParam("overrule-shutdown", equalTo("1"))
            .willReturn(okJson("{\"data\":\"" + UPID_STOP + "\"}")));
  }

  @Test
  void stopsAfterTheGracefulTimeoutOverrulingTheShutdownTaskThatHoldsTheLock() throws Exception {
    status("running");
    action("shutdown", UPID_SHUTDOWN);
    pve.stubFor(
        get(urlPathEqualTo("/api2/json/nodes/pve1/tasks/" + UPID_SHUTDOWN + "/status"))
            .willReturn(okJson("{\"data\":{\"status\":\"running\"}}")));
    stopThatNeedsTheLock();
    task(UPID_STOP, "OK");

    driver.powerOff(vm, PowerOffMode.GRACEFUL, deadline());

    pve.verify(
        1,
        postRequestedFor(urlPathEqualTo(VM + "/status/shutdown"))
            .withFormParam("timeout", equalTo("1"))
            .withFormParam("forceStop", equalTo("1")));
    pve.verify(1, postRequestedFor(urlPathEqualTo(VM + "/status/stop")));
    pve.verify(
        1,
        postRequestedFor(urlPathEqualTo(VM + "/status/stop"))
            .withFormParam("overrule-shutdown", equalTo("1")));
    pve.verify(
        1, getRequestedFor(urlPathEqualTo("/api2/json/nodes/pve1/tasks/" + UPID_STOP + "/status")));
  }

  @Test
  void aForcedOffStopsAtOnceOverrulingAnyShutdown() throws Exception {
    status("running");
    stopThatNeedsTheLock();
    task(UPID_STOP, "OK");

    driver.powerOff(vm, PowerOffMode.FORCE, deadline());

    pve.verify(0, postRequestedFor(urlPathEqualTo(VM + "/status/shutdown")));
    pve.verify(
        1,
        postRequestedFor(urlPathEqualTo(VM + "/status/stop"))
            .withFormParam("overrule-shutdown", equalTo("1")));
  }

  @Test
  void aProxmoxThatDoesNotKnowOverruleShutdownGetsAPlainStop() throws Exception {
    status("running");
    pve.stubFor(
        post(urlPathEqualTo(VM + "/status/stop"))
            .withFormParam("overrule-shutdown", equalTo("1"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withStatusMessage("Parameter verification failed.")
                    .withHeader("Content-Type", "application/json;charset=UTF-8")
                    .withBody(
                        "{\"errors\":{\"overrule-shutdown\":\"property is not defined in schema"
                            + " and the schema does not allow additional properties\"},"
                            + "\"data\":null}")));
    pve.stubFor(
        post(urlPathEqualTo(VM + "/status/stop"))
            .withFormParam("overrule-shutdown", absent())
            .willReturn(okJson("{\"data\":\"" + UPID_STOP + "\"}")));
    task(UPID_STOP, "OK");

    driver.powerOff(vm, PowerOffMode.FORCE, deadline());

    pve.verify(2, postRequestedFor(urlPathEqualTo(VM + "/status/stop")));
    pve.verify(
        1,
        postRequestedFor(urlPathEqualTo(VM + "/status/stop"))
            .withFormParam("overrule-shutdown", absent()));
    pve.verify(
        1, getRequestedFor(urlPathEqualTo("/api2/json/nodes/pve1/tasks/" + UPID_STOP + "/status")));
  }

  @Test
  void anotherRejectedParameterIsAProtocolErrorNamingIt() {
    status("running");
    pve.stubFor(
        post(urlPathEqualTo(VM + "/status/stop"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withStatusMessage("Parameter verification failed.")
                    .withBody("{\"errors\":{\"vmid\":\"invalid format\"},\"data\":null}")));

    assertThatThrownBy(() -> driver.powerOff(vm, PowerOffMode.FORCE, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.PROTOCOL);
              assertThat(e.getMessage()).contains("HTTP 400", "rejected parameters: vmid");
            });
    pve.verify(1, postRequestedFor(urlPathEqualTo(VM + "/status/stop")));
  }

  @Test
  void aFailedTaskIsAFailure() {
    status("stopped");
    action("start", UPID_START);
    task(UPID_START, "running", "start failed: QEMU exited with code 1");

    assertThatThrownBy(() -> driver.powerOn(vm, deadline()))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.BMC_ERROR);
              assertThat(e.getMessage()).contains("QEMU exited with code 1");
            });
  }

  @Test
  void a401IsTerminalAndTheMessageHoldsNoToken() {
    pve.stubFor(
        get(urlPathEqualTo(VM + "/status/current"))
            .willReturn(aResponse().withStatus(401).withStatusMessage("authentication failure")));
    assertThatThrownBy(() -> driver.bmcPowerState(vm, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.BAD_CREDENTIALS);
              assertThat(e.getMessage()).doesNotContain("uuid-secret");
            });
  }

  @Test
  void a500IsTransient() {
    pve.stubFor(
        get(urlPathEqualTo(VM + "/status/current"))
            .willReturn(
                aResponse()
                    .withStatus(500)
                    .withStatusMessage("got timeout")
                    .withBody("{\"data\":null}")));
    assertThatThrownBy(() -> driver.bmcPowerState(vm, deadline()))
        .isInstanceOfSatisfying(
            TransientPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.BMC_ERROR));
  }

  @Test
  void aMissingVmIdIsAConfigurationError() {
    BmcEndpoint noVmid =
        new BmcEndpoint(
            vm.address(),
            "pve-token",
            TlsSettings.DEFAULT,
            Map.of(ProxmoxDriver.OPTION_NODE, "pve1"));
    assertThatThrownBy(() -> driver.bmcPowerState(noVmid, deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.INVALID_CONFIG));
  }

  @Test
  void inspectsTheVmConfig() throws Exception {
    pve.stubFor(
        get(urlPathEqualTo(VM + "/config"))
            .willReturn(
                okJson(
                    "{\"data\":{\"cores\":4,\"sockets\":1,\"memory\":\"8192\",\"cpu\":\"host\","
                        + "\"net0\":\"virtio=BC:24:11:2A:3B:4C,bridge=vmbr0,firewall=1\","
                        + "\"name\":\"worker-1\"}}")));
    HardwareInfo info = driver.inspect(vm, deadline());
    assertThat(info.memoryMiB()).isEqualTo(8192L);
    assertThat(info.cpuCount()).isEqualTo(1);
    assertThat(info.macAddresses()).containsExactly("bc:24:11:2a:3b:4c");
  }

  @Test
  void oneProxmoxHostGetsAtMostTheConfiguredRequestsAtATime() throws Exception {
    pve.stubFor(
        get(urlPathEqualTo(VM + "/status/current"))
            .willReturn(okJson("{\"data\":{\"status\":\"running\"}}").withFixedDelay(100)));
    ProxmoxDriver limited =
        new ProxmoxDriver(
            new CredentialStore(dir),
            ProxmoxConfig.defaults().withPerHostLimits(2, Duration.ZERO),
            Sleeper.SYSTEM);
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(12);
    try {
      java.util.List<java.util.concurrent.Callable<BmcPowerState>> calls =
          new java.util.ArrayList<>();
      for (int i = 0; i < 12; i++) {
        calls.add(() -> limited.bmcPowerState(vm, deadline()));
      }
      long start = System.nanoTime();
      for (java.util.concurrent.Future<BmcPowerState> f : pool.invokeAll(calls)) {
        assertThat(f.get()).isEqualTo(BmcPowerState.ON);
      }
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      // 12 answers of 100 ms, two at a time: six rounds at least
      assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(580));
    } finally {
      pool.shutdown();
      limited.close();
    }
  }
}
