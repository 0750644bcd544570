package io.bamel.power.proxmox;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.bamel.power.BmcEndpoint;
import io.bamel.power.BmcPowerState;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TlsSettings;
import io.bamel.power.credentials.CredentialStore;
import io.bamel.power.sim.SelfSignedCertificate;
import io.bamel.power.tls.TlsConfigurer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Proxmox driver over HTTPS against WireMock presenting a self-signed certificate made in the
 * test, as a Proxmox VE node does out of the box: trusted through its CA bundle or a pinned SHA-256
 * fingerprint, refused without either.
 */
class ProxmoxTlsIT {

  private static final String VM = "/api2/json/nodes/pve1/qemu/101";
  private static final char[] STORE_PASSWORD = "wiremock-store".toCharArray();

  @TempDir static Path dir;
  static SelfSignedCertificate certificate;
  static WireMockServer pve;

  ProxmoxDriver driver;

  @BeforeAll
  static void startHttps() throws Exception {
    certificate = SelfSignedCertificate.generate();
    Path store = certificate.writePkcs12(dir.resolve("pve.p12"), STORE_PASSWORD);
    pve =
        new WireMockServer(
            wireMockConfig()
                .httpDisabled(true)
                .dynamicHttpsPort()
                .bindAddress("127.0.0.1")
                .keystorePath(store.toString())
                .keystoreType("PKCS12")
                .keystorePassword(new String(STORE_PASSWORD))
                .keyManagerPassword(new String(STORE_PASSWORD)));
    pve.start();
    Path secret = Files.createDirectories(dir.resolve("pve-token"));
    Files.writeString(secret.resolve("token"), "root@pam!bamel=tls-test-secret\n");
  }

  @AfterAll
  static void stopHttps() {
    pve.stop();
  }

  @BeforeEach
  void setUp() {
    pve.resetAll();
    pve.stubFor(
        get(urlPathEqualTo(VM + "/status/current"))
            .willReturn(okJson("{\"data\":{\"status\":\"running\",\"vmid\":101}}")));
    driver = new ProxmoxDriver(new CredentialStore(dir));
  }

  @AfterEach
  void tearDown() {
    driver.close();
  }

  private static BmcEndpoint vm(TlsSettings tls) {
    return new BmcEndpoint(
        "https://127.0.0.1:" + pve.httpsPort(),
        "pve-token",
        tls,
        Map.of(ProxmoxDriver.OPTION_NODE, "pve1", ProxmoxDriver.OPTION_VMID, "101"));
  }

  private static Deadline deadline() {
    return Deadline.in(Duration.ofSeconds(5));
  }

  @Test
  void theRightCaBundleIsTrusted() throws Exception {
    Path ca = certificate.writePem(dir.resolve("pve-ca.pem"));
    assertThat(driver.bmcPowerState(vm(TlsSettings.caBundle(ca)), deadline()))
        .isEqualTo(BmcPowerState.ON);
    pve.verify(1, getRequestedFor(urlPathEqualTo(VM + "/status/current")));
  }

  @Test
  void withoutTheCaTheCallFailsWithAClearTlsError() {
    assertThatThrownBy(() -> driver.bmcPowerState(vm(TlsSettings.DEFAULT), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.TLS);
              assertThat(e.getMessage())
                  .contains("not trusted")
                  .contains("give its CA bundle, pin its fingerprint");
            });
    pve.verify(0, getRequestedFor(urlPathEqualTo(VM + "/status/current")));
  }

  @Test
  void aCaBundleOfAnotherCertificateIsRefused() throws Exception {
    Path other = SelfSignedCertificate.generate().writePem(dir.resolve("other-ca.pem"));
    assertThatThrownBy(() -> driver.bmcPowerState(vm(TlsSettings.caBundle(other)), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> assertThat(e.reason()).isEqualTo(PowerException.Reason.TLS));
    pve.verify(0, getRequestedFor(urlPathEqualTo(VM + "/status/current")));
  }

  @Test
  void thePinnedFingerprintIsTrustedInTheFormProxmoxShowsIt() throws Exception {
    // Proxmox's GUI shows fingerprints as upper-case hex pairs separated by colons
    byte[] digest = HexFormat.of().parseHex(TlsConfigurer.sha256(certificate.certificate()));
    String shown = HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);

    assertThat(driver.bmcPowerState(vm(TlsSettings.pinned(shown)), deadline()))
        .isEqualTo(BmcPowerState.ON);
    pve.verify(1, getRequestedFor(urlPathEqualTo(VM + "/status/current")));
  }

  @Test
  void aWrongPinIsRefused() throws Exception {
    String right = TlsConfigurer.sha256(certificate.certificate());
    String wrong = (right.charAt(0) == '0' ? "1" : "0") + right.substring(1);
    assertThatThrownBy(
            () ->
                driver.bmcPowerState(
                    vm(TlsSettings.pinned(wrong.toUpperCase(Locale.ROOT))), deadline()))
        .isInstanceOfSatisfying(
            TerminalPowerException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(PowerException.Reason.TLS);
              assertThat(e.getMessage()).contains("not trusted");
            });
    pve.verify(0, getRequestedFor(urlPathEqualTo(VM + "/status/current")));
  }
}
