package io.bamel.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {

  @TempDir Path dir;

  private Path yaml(String text) throws Exception {
    return Files.writeString(dir.resolve("config.yaml"), text);
  }

  @Test
  void defaultsWithoutAnySource() {
    ServerConfig c = ConfigLoader.load(null, Map.of(), Map.of());
    assertThat(c).isEqualTo(ServerConfig.DEFAULTS);
    assertThat(c.embeddedEtcd()).isTrue();
    assertThat(c.http().port()).isEqualTo(8080);
    assertThat(c.http().maxBodyBytes()).isEqualTo(8L * 1024 * 1024);
    assertThat(c.components()).containsExactly("api", "node-controller", "pool-controller");
  }

  @Test
  void flagsWinOverEnvironmentWhichWinsOverTheFile() throws Exception {
    Path file =
        yaml(
            """
            http:
              port: 9000
              host: 127.0.0.1
            etcd:
              endpoints: [http://etcd-a:2379]
              timeout: 30s
            auth:
              tokensFile: /etc/bamel/tokens
            log:
              format: json
            """);
    ServerConfig c =
        ConfigLoader.load(
            file,
            Map.of(
                "BAMEL_HTTP_PORT",
                "9100",
                "BAMEL_ETCD_ENDPOINTS",
                "http://e1:2379,http://e2:2379",
                "PATH",
                "/bin"),
            Map.of("http.port", "9200"));
    assertThat(c.http().port()).isEqualTo(9200);
    assertThat(c.http().host()).isEqualTo("127.0.0.1");
    assertThat(c.etcd().endpoints()).containsExactly("http://e1:2379", "http://e2:2379");
    assertThat(c.etcd().timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.log().format()).isEqualTo("json");
    assertThat(c.embeddedEtcd()).isFalse();
  }

  @Test
  void everySettingHasAnEnvironmentVariable() {
    Map<String, String> names = ConfigLoader.environmentNames();
    assertThat(names)
        .containsEntry("BAMEL_ETCD_CA_FILE", "etcd.caFile")
        .containsEntry("BAMEL_NODE_CONTROLLER_BMC_CONCURRENCY", "nodeController.bmcConcurrency")
        .containsEntry("BAMEL_POOL_CONTROLLER_PROMETHEUS_URL", "poolController.prometheusUrl")
        .containsEntry("BAMEL_COMPONENTS", "components")
        .containsEntry("BAMEL_AUTH_ANONYMOUS_READ", "auth.anonymousRead")
        .containsEntry("BAMEL_NETBOX_URL", "netbox.url")
        .containsEntry("BAMEL_NETBOX_TOKEN_FILE", "netbox.tokenFile")
        .containsEntry("BAMEL_NETBOX_FILTERS_SITE", "netbox.filters.site")
        .containsEntry("BAMEL_NETBOX_REPORT_BACK_ENABLED", "netbox.reportBack.enabled")
        .containsEntry("BAMEL_NETBOX_WEBHOOK_SECRET_FILE", "netbox.webhookSecretFile");
    ServerConfig c =
        ConfigLoader.load(
            null, Map.of("BAMEL_AUTH_ANONYMOUS_READ", "true", "BAMEL_COMPONENTS", "api"), Map.of());
    assertThat(c.auth().anonymousRead()).isTrue();
    assertThat(c.components()).isEqualTo(List.of("api"));
  }

  @Test
  void placeholderSerialsAddToTheBuiltInListFromTheFileOrTheEnvironment() throws Exception {
    assertThat(ServerConfig.DEFAULTS.sync().placeholderSerials()).isEmpty();
    Path file =
        yaml(
            """
            sync:
              placeholderSerials: ["SN-UNSET", "Chassis 0"]
            """);
    assertThat(ConfigLoader.load(file, Map.of(), Map.of()).sync().placeholderSerials())
        .containsExactly("SN-UNSET", "Chassis 0");
    assertThat(ConfigLoader.environmentNames())
        .containsEntry("BAMEL_SYNC_PLACEHOLDER_SERIALS", "sync.placeholderSerials");
    assertThat(
            ConfigLoader.load(null, Map.of("BAMEL_SYNC_PLACEHOLDER_SERIALS", "A1,B2"), Map.of())
                .sync()
                .placeholderSerials())
        .containsExactly("A1", "B2");
  }

  @Test
  void mistakesNameTheSetting() throws Exception {
    assertThatThrownBy(() -> ConfigLoader.load(yaml("htp:\n  port: 1\n"), Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown setting 'htp'");
    assertThatThrownBy(() -> ConfigLoader.load(yaml("http:\n  prot: 1\n"), Map.of(), Map.of()))
        .hasMessageContaining("unknown setting 'http.prot'");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("BAMEL_HTTP_PORT", "eighty"), Map.of()))
        .hasMessageContaining("'http.port' must be a number")
        .hasMessageContaining("BAMEL_HTTP_PORT");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("components", "api,dns")))
        .hasMessageContaining("unknown component 'dns'");
    assertThatThrownBy(
            () -> ConfigLoader.load(null, Map.of(), Map.of("etcd.endpoints", "etcd:2379")))
        .hasMessageContaining("must be an http(s) URL");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("etcd.user", "bamel")))
        .hasMessageContaining("etcd.passwordFile");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(yaml("poolController:\n  interval: soon\n"), Map.of(), Map.of()))
        .hasMessageContaining("invalid configuration");
    assertThat(
            ConfigLoader.load(null, Map.of("BAMEL_HTTP_MAX_BODY_BYTES", "1048576"), Map.of())
                .http()
                .maxBodyBytes())
        .isEqualTo(1024 * 1024);
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("http.maxBodyBytes", "100")))
        .hasMessageContaining("http.maxBodyBytes must be at least 1024");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("log.format", "xml")))
        .hasMessageContaining("log.format must be text or json");
  }

  @Test
  void nodeControllerSettingsHaveDefaultsAndAreValidated() throws Exception {
    ServerConfig.NodeControllerSettings d =
        ConfigLoader.load(null, Map.of(), Map.of()).nodeController();
    assertThat(d.workers()).isEqualTo(64);
    assertThat(d.bmcConcurrency()).isEqualTo(64);
    assertThat(d.shutdownTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(d.powerOnTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.joinTimeout()).isEqualTo(Duration.ofMinutes(20));
    assertThat(d.drainTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(d.powerOffTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(ConfigLoader.environmentNames())
        .containsEntry("BAMEL_NODE_CONTROLLER_SHUTDOWN_TIMEOUT", "nodeController.shutdownTimeout")
        .containsEntry("BAMEL_NODE_CONTROLLER_POWER_ON_TIMEOUT", "nodeController.powerOnTimeout")
        .containsEntry("BAMEL_NODE_CONTROLLER_JOIN_TIMEOUT", "nodeController.joinTimeout")
        .containsEntry("BAMEL_NODE_CONTROLLER_DRAIN_TIMEOUT", "nodeController.drainTimeout")
        .containsEntry("BAMEL_NODE_CONTROLLER_POWER_OFF_TIMEOUT", "nodeController.powerOffTimeout");

    ServerConfig.NodeControllerSettings c =
        ConfigLoader.load(
                yaml(
                    """
                    nodeController:
                      workers: 8
                      joinTimeout: 30m
                      shutdownTimeout: 0s
                    """),
                Map.of("BAMEL_NODE_CONTROLLER_DRAIN_TIMEOUT", "1h"),
                Map.of("nodeController.powerOffTimeout", "90s"))
            .nodeController();
    assertThat(c.workers()).isEqualTo(8);
    assertThat(c.joinTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(c.shutdownTimeout()).isZero();
    assertThat(c.drainTimeout()).isEqualTo(Duration.ofHours(1));
    assertThat(c.powerOffTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.powerOnTimeout()).isEqualTo(Duration.ofMinutes(5));

    for (String s : List.of("powerOnTimeout", "joinTimeout", "drainTimeout", "powerOffTimeout")) {
      assertThatThrownBy(
              () -> ConfigLoader.load(null, Map.of(), Map.of("nodeController." + s, "0s")))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("nodeController." + s + " must be positive");
    }
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    null, Map.of(), Map.of("nodeController.shutdownTimeout", "PT-1S")))
        .hasMessageContaining("nodeController.shutdownTimeout must be zero or positive");
  }

  @Test
  void securitySettingsHaveSafeDefaultsAndEnvironmentVariables() {
    ServerConfig d = ConfigLoader.load(null, Map.of(), Map.of());
    assertThat(d.http().host()).isEqualTo("127.0.0.1");
    assertThat(d.http().maxConnections()).isEqualTo(10_000);
    assertThat(d.http().tls()).isEqualTo(new ServerConfig.Http.Tls("", "", ""));
    assertThat(d.http().tls().enabled()).isFalse();
    assertThat(d.bmc().requireAllowList()).isFalse();
    assertThat(d.wakeOnLan().powerOffCommandsFile()).isEmpty();
    assertThat(ConfigLoader.environmentNames())
        .containsEntry("BAMEL_HTTP_TLS_CERT_FILE", "http.tls.certFile")
        .containsEntry("BAMEL_HTTP_TLS_KEY_FILE", "http.tls.keyFile")
        .containsEntry("BAMEL_HTTP_TLS_CLIENT_CA_FILE", "http.tls.clientCaFile")
        .containsEntry("BAMEL_HTTP_MAX_CONNECTIONS", "http.maxConnections")
        .containsEntry("BAMEL_BMC_REQUIRE_ALLOW_LIST", "bmc.requireAllowList")
        .containsEntry(
            "BAMEL_WAKE_ON_LAN_POWER_OFF_COMMANDS_FILE", "wakeOnLan.powerOffCommandsFile");
  }

  @Test
  void tlsAndTheOtherSecuritySettingsComeFromEverySource() throws Exception {
    Path file =
        yaml(
            """
            http:
              host: 0.0.0.0
              maxConnections: 500
              tls:
                certFile: /etc/bamel/tls/tls.crt
                keyFile: /etc/bamel/tls/tls.key
            bmc:
              requireAllowList: true
            wakeOnLan:
              powerOffCommandsFile: /etc/bamel/power-off-commands.yaml
            """);
    ServerConfig c =
        ConfigLoader.load(
            file,
            Map.of("BAMEL_HTTP_TLS_CLIENT_CA_FILE", "/etc/bamel/tls/clients.crt"),
            Map.of("http.maxConnections", "700"));
    assertThat(c.http().host()).isEqualTo("0.0.0.0");
    assertThat(c.http().maxConnections()).isEqualTo(700);
    assertThat(c.http().tls())
        .isEqualTo(
            new ServerConfig.Http.Tls(
                "/etc/bamel/tls/tls.crt", "/etc/bamel/tls/tls.key", "/etc/bamel/tls/clients.crt"));
    assertThat(c.http().tls().enabled()).isTrue();
    assertThat(c.bmc().requireAllowList()).isTrue();
    assertThat(c.wakeOnLan().powerOffCommandsFile())
        .isEqualTo("/etc/bamel/power-off-commands.yaml");
    // The environment alone is enough, as in the Kubernetes Deployment.
    ServerConfig env =
        ConfigLoader.load(
            null,
            Map.of(
                "BAMEL_HTTP_TLS_CERT_FILE", "/tls/tls.crt",
                "BAMEL_HTTP_TLS_KEY_FILE", "/tls/tls.key",
                "BAMEL_BMC_REQUIRE_ALLOW_LIST", "true",
                "BAMEL_WAKE_ON_LAN_POWER_OFF_COMMANDS_FILE", "/wol.yaml"),
            Map.of());
    assertThat(env.http().tls().certFile()).isEqualTo("/tls/tls.crt");
    assertThat(env.bmc().requireAllowList()).isTrue();
    assertThat(env.wakeOnLan().powerOffCommandsFile()).isEqualTo("/wol.yaml");
  }

  @Test
  void netBoxSettingsComeFromEverySourceAndAreValidated() throws Exception {
    ServerConfig d = ConfigLoader.load(null, Map.of(), Map.of());
    assertThat(d.netbox().enabled()).isFalse();
    assertThat(d.netbox().interval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.netbox().scope()).isEqualTo("write");
    assertThat(d.netbox().prune()).isTrue();
    assertThat(d.netbox().pageSize()).isEqualTo(1000);
    assertThat(d.netbox().macCustomField()).isEqualTo("bamel_mac_address");
    assertThat(d.netbox().reportBack().enabled()).isFalse();

    Path file =
        yaml(
            """
            netbox:
              url: https://192.0.2.20/netbox
              tokenFile: /etc/bamel/netbox-token
              caFile: /etc/bamel/netbox-ca.crt
              filters:
                site: [ams1]
                tag: [k8s, gpu]
                status: [active]
              interval: 2m
              scope: bmc
              reportBack:
                enabled: true
                batchSize: 50
            """);
    ServerConfig c =
        ConfigLoader.load(
            file,
            Map.of(
                "BAMEL_NETBOX_FILTERS_ROLE", "server,storage",
                "BAMEL_NETBOX_WEBHOOK_SECRET_FILE", "/etc/bamel/netbox-webhook"),
            Map.of());
    assertThat(c.netbox().enabled()).isTrue();
    assertThat(c.netbox().filters().site()).containsExactly("ams1");
    assertThat(c.netbox().filters().tag()).containsExactly("k8s", "gpu");
    assertThat(c.netbox().filters().role()).containsExactly("server", "storage");
    assertThat(c.netbox().interval()).isEqualTo(Duration.ofMinutes(2));
    assertThat(c.netbox().reportBack().batchSize()).isEqualTo(50);
    assertThat(c.netbox().reportBack().requestsPerSecond()).isEqualTo(2);
    assertThat(c.netbox().webhookSecretFile()).isEqualTo("/etc/bamel/netbox-webhook");

    Map<String, String> on = Map.of("BAMEL_NETBOX_URL", "https://192.0.2.20");
    assertThatThrownBy(() -> ConfigLoader.load(null, on, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("netbox.url needs netbox.tokenFile");
    Map<String, String> withToken =
        Map.of("BAMEL_NETBOX_URL", "https://192.0.2.20", "BAMEL_NETBOX_TOKEN_FILE", "/t");
    assertThatThrownBy(() -> ConfigLoader.load(null, withToken, Map.of("netbox.scope", "admin")))
        .hasMessageContaining("netbox.scope must be write or bmc");
    assertThatThrownBy(() -> ConfigLoader.load(null, withToken, Map.of("netbox.pageSize", "5000")))
        .hasMessageContaining("netbox.pageSize must be 1 to 1000");
    assertThatThrownBy(() -> ConfigLoader.load(null, withToken, Map.of("netbox.interval", "1s")))
        .hasMessageContaining("netbox.interval must be at least 10s");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    null, withToken, Map.of("netbox.url", "https://192.0.2.20/api/dcim/devices/")))
        .hasMessageContaining("not its API");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    null, withToken, Map.of("netbox.url", "https://user:pw@192.0.2.20")))
        .hasMessageContaining("without credentials");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    null,
                    Map.of(
                        "BAMEL_NETBOX_URL", "http://192.0.2.20", "BAMEL_NETBOX_TOKEN_FILE", "/t"),
                    Map.of("netbox.caFile", "/ca.crt")))
        .hasMessageContaining("netbox.caFile needs an https:// netbox.url");
    assertThatThrownBy(
            () -> ConfigLoader.load(null, Map.of("BAMEL_NETBOX_TOKEN_FILE", "/t"), Map.of()))
        .hasMessageContaining("need netbox.url");
    assertThat(
            SecurityWarnings.of(
                ConfigLoader.load(
                    null,
                    Map.of(
                        "BAMEL_NETBOX_URL", "http://192.0.2.20", "BAMEL_NETBOX_TOKEN_FILE", "/t"),
                    Map.of())))
        .anySatisfy(w -> assertThat(w).startsWith("netbox.url is plain http:// to 192.0.2.20"));
  }

  @Test
  void tlsSettingsGoTogether() throws Exception {
    assertThatThrownBy(
            () -> ConfigLoader.load(null, Map.of(), Map.of("http.tls.certFile", "/tls.crt")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("http.tls.certFile and http.tls.keyFile go together");
    assertThatThrownBy(
            () -> ConfigLoader.load(null, Map.of("BAMEL_HTTP_TLS_KEY_FILE", "/tls.key"), Map.of()))
        .hasMessageContaining("http.tls.certFile and http.tls.keyFile go together");
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    yaml("http:\n  tls:\n    clientCaFile: /clients.crt\n"), Map.of(), Map.of()))
        .hasMessageContaining("http.tls.clientCaFile needs http.tls.certFile");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("http.maxConnections", "0")))
        .hasMessageContaining("http.maxConnections must be at least 1");
    assertThatThrownBy(
            () -> ConfigLoader.load(yaml("http:\n  tls:\n    cert: /x\n"), Map.of(), Map.of()))
        .hasMessageContaining("unknown setting 'http.tls.cert'");
    assertThatThrownBy(
            () -> ConfigLoader.load(null, Map.of("BAMEL_BMC_REQUIRE_ALLOW_LIST", "yes"), Map.of()))
        .hasMessageContaining("'bmc.requireAllowList' must be true or false");
  }

  @Test
  void unknownBamelVariablesAreErrorsExceptTheOnesThatAreNotSettings() {
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("BAMEL_NODE_NAME", "n1"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown environment variable BAMEL_NODE_NAME");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("BAMEL_HTTP_PROT", "1"), Map.of()))
        .hasMessageContaining("BAMEL_HTTP_PROT");
    ServerConfig c =
        ConfigLoader.load(
            null,
            Map.of("BAMEL_ETCD_BIN", "/usr/bin/etcd", "BAMEL_SKIP_IPMI", "1", "HOME", "/root"),
            Map.of());
    assertThat(c).isEqualTo(ServerConfig.DEFAULTS);
    assertThat(ConfigLoader.NOT_SETTINGS)
        .doesNotContainAnyElementsOf(ConfigLoader.environmentNames().keySet());
  }

  /** Flags for an external etcd at {@code endpoints} with a tokens file and {@code caFile}. */
  private static Map<String, String> externalEtcd(String endpoints, String caFile) {
    Map<String, String> flags =
        with(Map.of("auth.tokensFile", "/etc/bamel/tokens"), "etcd.endpoints", endpoints);
    return caFile == null ? flags : with(flags, "etcd.caFile", caFile);
  }

  @ParameterizedTest(name = "{0} with CA {1}: {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "none",
      textBlock =
          """
          https://etcd-0:2379                    | none    | etcd.caFile is empty
          https://etcd-0:2379,http://etcd-1:2379 | /ca.crt | mixes http:// and https://
          http://etcd-0:2379                     | /ca.crt | need https://
          """)
  void httpsEtcdNeedsItsCaAndTheSchemeDecidesTls(String endpoints, String caFile, String refusal) {
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), externalEtcd(endpoints, caFile)))
        .hasMessageContaining(refusal);
  }

  @Test
  void httpsEtcdWithItsCaLoads() {
    ServerConfig c =
        ConfigLoader.load(null, Map.of(), externalEtcd("https://etcd-0:2379", "/ca.crt"));
    assertThat(c.etcd().caFile()).isEqualTo("/ca.crt");
  }

  @Test
  void externalEtcdNeedsTokensUnlessReadsAreAnonymous() {
    Map<String, String> external = Map.of("etcd.endpoints", "http://etcd-0:2379");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), external))
        .hasMessageContaining("auth.tokensFile is required with etcd.endpoints");
    assertThat(
            ConfigLoader.load(null, Map.of(), with(external, "auth.anonymousRead", "true"))
                .auth()
                .anonymousRead())
        .isTrue();
    // The embedded default needs none: it generates an admin token.
    assertThat(ConfigLoader.load(null, Map.of(), Map.of()).auth().tokensFile()).isEmpty();
  }

  @Test
  void theShippedConfigsLoad() throws Exception {
    ServerConfig systemd = ConfigLoader.load(Path.of("systemd/config.yaml"), Map.of(), Map.of());
    assertThat(systemd.etcd().endpoints()).allMatch(e -> e.startsWith("https://"));
    assertThat(systemd.auth().tokensFile()).isEqualTo("/run/credentials/bamel.service/tokens");
    assertThat(systemd.http().host()).isEqualTo("0.0.0.0");
    assertThat(systemd.http().tls().certFile()).isEqualTo("/etc/bamel/tls/tls.crt");
    assertThat(systemd.http().tls().keyFile()).isEqualTo("/etc/bamel/tls/tls.key");
    assertThat(SecurityWarnings.of(systemd)).isEmpty();

    ServerConfig base =
        ConfigLoader.load(configMap("kubernetes/base/configmap.yaml"), Map.of(), Map.of());
    assertThat(base.embeddedEtcd()).isFalse();
    assertThat(base.kubernetes().mode()).isEqualTo("in-cluster");
    assertThat(base.auth().tokensFile()).isEqualTo("/etc/bamel/tokens/tokens");
    assertThat(base.log().format()).isEqualTo("json");

    ServerConfig tls =
        ConfigLoader.load(
            configMap("kubernetes/components/external-etcd/etcd-config.yaml"), Map.of(), Map.of());
    assertThat(tls.etcd().endpoints()).hasSize(3).allMatch(e -> e.startsWith("https://"));
    assertThat(tls.etcd().caFile()).isEqualTo("/etc/bamel/etcd/ca.crt");
    assertThat(tls.etcd().certFile()).isEqualTo("/etc/bamel/etcd/client.crt");
    assertThat(tls.etcd().user()).isEqualTo("bamel");
    assertThat(tls.etcd().passwordFile()).isEqualTo("/etc/bamel/etcd/password");
  }

  /** The {@code config.yaml} of a shipped ConfigMap, as the mounted file bamel reads. */
  private Path configMap(String manifest) throws Exception {
    JsonNode map = new ObjectMapper(new YAMLFactory()).readTree(Path.of(manifest).toFile());
    assertThat(map.path("kind").asText()).isEqualTo("ConfigMap");
    String text = map.path("data").path("config.yaml").asText();
    assertThat(text).as(manifest).isNotBlank();
    return Files.writeString(dir.resolve(Path.of(manifest).getFileName()), text);
  }

  private static Map<String, String> with(Map<String, String> flags, String key, String value) {
    Map<String, String> copy = new java.util.HashMap<>(flags);
    copy.put(key, value);
    return copy;
  }

  @Test
  void theSitesIpmiImplementationIsNativeUnlessSetToIpmitool() throws Exception {
    assertThat(ServerConfig.DEFAULTS.bmc().ipmi().implementation()).isEqualTo("native");
    assertThat(ConfigLoader.environmentNames())
        .containsEntry("BAMEL_BMC_IPMI_IMPLEMENTATION", "bmc.ipmi.implementation");
    Path file =
        yaml(
            """
            bmc:
              ipmi:
                implementation: ipmitool
            """);
    assertThat(ConfigLoader.load(file, Map.of(), Map.of()).bmc().ipmi().implementation())
        .isEqualTo("ipmitool");
    assertThat(
            ConfigLoader.load(file, Map.of("BAMEL_BMC_IPMI_IMPLEMENTATION", "native"), Map.of())
                .bmc()
                .ipmi()
                .implementation())
        .isEqualTo("native");
    // the other bmc settings keep their defaults
    assertThat(ConfigLoader.load(file, Map.of(), Map.of()).bmc().credentialsDir())
        .isEqualTo("/etc/bamel/bmc");
  }

  @Test
  void anUnknownIpmiImplementationIsRefusedByName() throws Exception {
    assertThatThrownBy(
            () -> ConfigLoader.load(null, Map.of(), Map.of("bmc.ipmi.implementation", "freeipmi")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("bmc.ipmi.implementation must be native or ipmitool, not 'freeipmi'");
    Path file =
        yaml(
            """
            bmc:
              ipmi: null
            """);
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("bmc.ipmi.implementation must be native or ipmitool");
  }
}
