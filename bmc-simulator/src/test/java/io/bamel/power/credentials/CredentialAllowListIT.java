package io.bamel.power.credentials;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.PowerDriver;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.ipmi.IpmiConfig;
import io.bamel.power.ipmi.IpmiDriver;
import io.bamel.power.ipmi.IpmiImplementation;
import io.bamel.power.net.IpLiteral;
import io.bamel.power.process.ProcessResult;
import io.bamel.power.proxmox.ProxmoxDriver;
import io.bamel.power.redfish.RedfishDriver;
import io.bamel.power.testing.CaptureServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node pointed at a capture server on loopback, with a credential whose allow-list does or does
 * not name it: refused, the server never receives the username, password or token (not even a
 * request); allowed, the same setup does deliver them, so the refusals are not an accident of the
 * setup.
 */
class CredentialAllowListIT {

  private static final String USER = "capture-user-7";
  private static final String PASSWORD = "Capture-Secret-pw-42";
  private static final String TOKEN = "root@pam!bamel=Capture-Token-secret-9";
  private static final String TOKEN_SECRET = "Capture-Token-secret-9";

  @TempDir Path root;
  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closing.reversed()) {
      c.close();
    }
  }

  private <T extends AutoCloseable> T closes(T closeable) {
    closing.add(closeable);
    return closeable;
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(10));
  }

  /** Writes credential {@code name}; {@code allowedHosts} null means no allow-list file. */
  private void credential(String name, String allowedHosts) throws Exception {
    Path dir = Files.createDirectories(root.resolve(name));
    Files.writeString(dir.resolve(CredentialStore.USERNAME), USER + "\n");
    Files.writeString(dir.resolve(CredentialStore.PASSWORD), PASSWORD + "\n");
    Files.writeString(dir.resolve(CredentialStore.TOKEN), TOKEN + "\n");
    Path file = dir.resolve(CredentialStore.ALLOWED_HOSTS);
    if (allowedHosts == null) {
      Files.deleteIfExists(file);
    } else {
      Files.writeString(file, allowedHosts);
    }
  }

  private RedfishDriver redfish() {
    return closes(new RedfishDriver(new CredentialStore(root)));
  }

  private static void assertNotAllowed(ThrowingCall call, String... messageParts) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.NOT_ALLOWED);
              assertThat(e.getMessage())
                  .contains(messageParts)
                  .doesNotContain(PASSWORD, TOKEN_SECRET);
            });
  }

  /** A driver call that reaches the capture server: whatever it ends with, it is not a refusal. */
  private static void assertReaches(ThrowingCall call) {
    PowerException e = catchThrowableOfType(PowerException.class, call::run);
    if (e != null) {
      assertThat(e.reason()).as(e.getMessage()).isNotEqualTo(PowerException.Reason.NOT_ALLOWED);
    }
  }

  @FunctionalInterface
  private interface ThrowingCall {
    void run() throws Exception;
  }

  private static void assertNothingReceived(CaptureServer capture) {
    assertThat(capture.received()).isEmpty();
    assertThat(capture.saw(PASSWORD)).isFalse();
    assertThat(capture.saw(USER)).isFalse();
    assertThat(capture.saw(TOKEN_SECRET)).isFalse();
  }

  @Test
  void redfishNeverSendsTheCredentialToAnAddressItsAllowListDoesNotName() throws Exception {
    CaptureServer capture = closes(CaptureServer.http());
    BmcEndpoint node = BmcEndpoint.of(capture.url(), "rack-7");
    credential("rack-7", "# rack 7 only\nhttp://192.0.2.0/24\n");

    assertNotAllowed(
        () -> redfish().bmcPowerState(node, deadline()),
        "credential 'rack-7' may not be sent to http://127.0.0.1",
        "127.0.0.1 is not in its allowed-hosts file");
    assertNotAllowed(() -> redfish().powerOn(node, deadline()), "'rack-7'");
    assertNothingReceived(capture);

    credential("rack-7", "http://192.0.2.0/24\nhttp://127.0.0.1\n");
    assertReaches(() -> redfish().bmcPowerState(node, deadline()));
    assertThat(capture.saw(PASSWORD)).isTrue();
    assertThat(capture.saw(USER)).isTrue();
  }

  @Test
  void redfishOverPlainHttpNeedsAnHttpEntryEvenWithoutAnAllowList() throws Exception {
    CaptureServer capture = closes(CaptureServer.http());
    BmcEndpoint node = BmcEndpoint.of(capture.url(), "plain");

    credential("plain", null);
    assertNotAllowed(
        () -> redfish().bmcPowerState(node, deadline()), "plain http:// needs an http:// entry");
    credential("plain", "127.0.0.1\n");
    assertNotAllowed(
        () -> redfish().bmcPowerState(node, deadline()), "127.0.0.1 is allowed only over https");
    assertNothingReceived(capture);

    credential("plain", "http://127.0.0.1\n");
    assertReaches(() -> redfish().bmcPowerState(node, deadline()));
    assertThat(capture.saw(PASSWORD)).isTrue();
  }

  @Test
  void redfishSkipsCertificateVerificationOnlyWhenTheAllowListSaysSo() throws Exception {
    CaptureServer capture = closes(CaptureServer.https());
    BmcEndpoint node =
        new BmcEndpoint(capture.url(), "lab", TlsSettings.insecureSkipVerify(), Map.of());

    credential("lab", null);
    assertNotAllowed(
        () -> redfish().bmcPowerState(node, deadline()),
        "insecureSkipVerify needs the line insecure-skip-verify");
    credential("lab", "127.0.0.1\n");
    assertNotAllowed(
        () -> redfish().bmcPowerState(node, deadline()), "does not allow insecureSkipVerify");
    assertNothingReceived(capture);

    credential("lab", "127.0.0.1\ninsecure-skip-verify\n");
    assertReaches(() -> redfish().bmcPowerState(node, deadline()));
    assertThat(capture.saw(PASSWORD)).isTrue();
  }

  @Test
  void redfishDoesNotFollowTheBmcsLinkToAnotherOrigin() throws Exception {
    CaptureServer bmc = closes(CaptureServer.http());
    CaptureServer elsewhere = closes(CaptureServer.http());
    bmc.linkSessionsTo(elsewhere.url() + "/redfish/v1/SessionService/Sessions");
    credential("rack-8", "http://127.0.0.1\n");

    assertThatThrownBy(
            () -> redfish().bmcPowerState(BmcEndpoint.of(bmc.url(), "rack-8"), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.PROTOCOL);
              assertThat(e.getMessage()).contains("links to another origin");
            });
    assertThat(bmc.received()).hasSize(1); // the service root, without credentials
    assertThat(bmc.saw(PASSWORD)).isFalse();
    assertNothingReceived(elsewhere);
  }

  @Test
  void proxmoxNeverSendsTheTokenOutsideItsAllowList() throws Exception {
    CaptureServer capture = closes(CaptureServer.http());
    BmcEndpoint vm =
        new BmcEndpoint(
            capture.url(),
            "pve",
            TlsSettings.DEFAULT,
            Map.of(ProxmoxDriver.OPTION_NODE, "pve1", ProxmoxDriver.OPTION_VMID, "101"));
    PowerDriver proxmox = closes(new ProxmoxDriver(new CredentialStore(root)));

    credential("pve", "http://192.0.2.10\n");
    assertNotAllowed(
        () -> proxmox.bmcPowerState(vm, deadline()),
        "credential 'pve' may not be sent to http://127.0.0.1");
    credential("pve", null);
    assertNotAllowed(() -> proxmox.bmcPowerState(vm, deadline()), "plain http://");
    assertNothingReceived(capture);

    credential("pve", "http://127.0.0.1\n");
    assertThat(proxmox.bmcPowerState(vm, deadline())).isEqualTo(BmcPowerState.ON);
    assertThat(capture.saw(TOKEN_SECRET)).isTrue();
  }

  @Test
  void proxmoxSkipsCertificateVerificationOnlyWhenTheAllowListSaysSo() throws Exception {
    CaptureServer capture = closes(CaptureServer.https());
    BmcEndpoint vm =
        new BmcEndpoint(
            capture.url(),
            "pve-lab",
            TlsSettings.insecureSkipVerify(),
            Map.of(ProxmoxDriver.OPTION_NODE, "pve1", ProxmoxDriver.OPTION_VMID, "101"));
    PowerDriver proxmox = closes(new ProxmoxDriver(new CredentialStore(root)));

    credential("pve-lab", "127.0.0.1\n");
    assertNotAllowed(() -> proxmox.bmcPowerState(vm, deadline()), "insecureSkipVerify");
    assertNothingReceived(capture);

    credential("pve-lab", "127.0.0.1\ninsecure-skip-verify\n");
    assertThat(proxmox.bmcPowerState(vm, deadline())).isEqualTo(BmcPowerState.ON);
    assertThat(capture.saw(TOKEN_SECRET)).isTrue();
  }

  @Test
  void ipmitoolNeverRunsForAnAddressOutsideTheAllowListAndGetsTheCheckedAddress() throws Exception {
    List<List<String>> runs = new ArrayList<>();
    List<Map<String, String>> environments = new ArrayList<>();
    PowerDriver ipmi =
        closes(
            new IpmiDriver(
                new CredentialStore(root),
                IpmiConfig.defaults()
                    .withImplementation(IpmiImplementation.IPMITOOL)
                    .withMinInterval(Duration.ZERO),
                (argv, env, timeout) -> {
                  runs.add(argv);
                  environments.add(env);
                  return new ProcessResult(0, "Chassis Power is on\n", "", false);
                },
                Clock.systemUTC(),
                d -> {}));
    credential("ipmi-r7", "192.0.2.0/24\n");

    assertNotAllowed(
        () -> ipmi.bmcPowerState(BmcEndpoint.of("198.51.100.7:623", "ipmi-r7"), deadline()),
        "credential 'ipmi-r7' may not be sent to ipmi://198.51.100.7",
        "198.51.100.7 is not in its allowed-hosts file");
    assertThat(runs).isEmpty();

    assertThat(ipmi.bmcPowerState(BmcEndpoint.of("192.0.2.7:1623", "ipmi-r7"), deadline()))
        .isEqualTo(BmcPowerState.ON);
    assertThat(String.join(" ", runs.get(0))).contains("-H 192.0.2.7 -p 1623 -U " + USER);
    assertThat(environments.get(0)).containsValue(PASSWORD);

    credential("ipmi-r7", "localhost\n");
    runs.clear();
    assertThat(ipmi.bmcPowerState(BmcEndpoint.of("localhost", "ipmi-r7"), deadline()))
        .isEqualTo(BmcPowerState.ON);
    String host = runs.get(0).get(runs.get(0).indexOf("-H") + 1);
    assertThat(IpLiteral.parse(host)).as("ipmitool -H %s", host).isPresent();
  }
}
