package io.bamel.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        .containsEntry("BAMEL_AUTH_ANONYMOUS_READ", "auth.anonymousRead");
    ServerConfig c =
        ConfigLoader.load(
            null, Map.of("BAMEL_AUTH_ANONYMOUS_READ", "true", "BAMEL_COMPONENTS", "api"), Map.of());
    assertThat(c.auth().anonymousRead()).isTrue();
    assertThat(c.components()).isEqualTo(List.of("api"));
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
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("log.format", "xml")))
        .hasMessageContaining("log.format must be text or json");
  }

  @Test
  void theShippedExampleConfigsLoad() throws Exception {
    Path systemd = Path.of("systemd/config.yaml");
    assertThat(ConfigLoader.load(systemd, Map.of(), Map.of()).etcd().endpoints()).isNotEmpty();
  }
}
