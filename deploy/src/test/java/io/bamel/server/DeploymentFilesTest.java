package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.SecurityWarnings;
import io.bamel.server.config.ServerConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The shipped deployment files are well-formed and name only metrics bamel exports. */
class DeploymentFilesTest {

  /**
   * Every metric family bamel registers, read from the declarations ({@code .name("bamel_...")}) in
   * the modules' main sources, so a dashboard cannot name a metric that no code exports.
   */
  static Set<String> declaredMetrics() throws IOException {
    Set<String> names = new TreeSet<>();
    Pattern declaration = Pattern.compile("\\.name\\(\\s*\"(bamel_[a-z_]+)\"");
    List<Path> sources;
    try (Stream<Path> modules = Files.list(Path.of(".."))) {
      sources = modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList();
    }
    assertThat(sources).hasSizeGreaterThanOrEqualTo(5);
    for (Path source : sources) {
      try (Stream<Path> files = Files.walk(source)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          Matcher m = declaration.matcher(Files.readString(file));
          while (m.find()) {
            names.add(m.group(1));
          }
        }
      }
    }
    return names;
  }

  @Test
  void grafanaDashboardParsesAndUsesKnownMetrics() throws Exception {
    JsonNode dashboard =
        new ObjectMapper().readTree(Path.of("grafana/bamel-dashboard.json").toFile());
    assertThat(dashboard.get("panels").size()).isGreaterThanOrEqualTo(10);
    Set<String> used = new TreeSet<>();
    Pattern metric = Pattern.compile("bamel_[a-z_]+");
    for (JsonNode panel : dashboard.get("panels")) {
      assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
      for (JsonNode target : panel.get("targets")) {
        Matcher m = metric.matcher(target.get("expr").asText());
        while (m.find()) {
          used.add(m.group().replaceAll("_(bucket|count|sum)$", ""));
        }
      }
    }
    Set<String> declared = declaredMetrics();
    assertThat(declared)
        .as("the scan finds the metrics of every module")
        .contains(
            "bamel_nodes",
            "bamel_power_operations_total",
            "bamel_pool_utilization_ratio",
            "bamel_http_requests_total",
            "bamel_leader");
    assertThat(declared).as("metrics the dashboard uses").containsAll(used);
    assertThat(used)
        .contains(
            "bamel_nodes",
            "bamel_pool_utilization_ratio",
            "bamel_pool_threshold_ratio",
            "bamel_energy_saved_joules_total",
            "bamel_power_operations_total");
  }

  /**
   * The README, the docs and the deployment files show documentation addresses (192.0.2.0/24,
   * 2001:db8::/32) and loopback only, never a private-range address (RFC 1918) a reader might copy
   * and a running controller would then contact.
   */
  @Test
  void documentationAndDeploymentFilesUseNoPrivateRangeAddress() throws IOException {
    Pattern privateRange =
        Pattern.compile(
            "(?<![\\d.])(10\\.\\d{1,3}|172\\.(1[6-9]|2\\d|3[01])|192\\.168)\\.\\d{1,3}\\.\\d{1,3}(?![\\d.])");
    List<Path> files =
        new ArrayList<>(
            List.of(Path.of("../README.md"), Path.of("../Makefile"), Path.of("Dockerfile")));
    // With the API's own document and console (the examples users copy) and the launcher.
    for (String dir :
        List.of(
            "../docs",
            "kubernetes",
            "systemd",
            "grafana",
            "src/main/dist",
            "../scripts",
            "../inventory-api/src/main/resources")) {
      try (Stream<Path> walk = Files.walk(Path.of(dir))) {
        // Text only: the docs' screenshots (docs/img/*.png) are not read as UTF-8.
        walk.filter(Files::isRegularFile)
            .filter(p -> !p.getFileName().toString().endsWith(".png"))
            .forEach(files::add);
      }
    }
    assertThat(files).hasSizeGreaterThan(10);
    for (Path file : files) {
      Matcher m = privateRange.matcher(Files.readString(file));
      String found = m.find() ? m.group() : null;
      assertThat(found).as("a private-range address in " + file).isNull();
    }
  }

  @Test
  void systemdUnitRunsTheServerWithItsConfig() throws Exception {
    String unit = Files.readString(Path.of("systemd/bamel.service"));
    assertThat(unit)
        .contains("ExecStart=/opt/bamel/bin/bamel server --config /etc/bamel/config.yaml");
    assertThat(unit).contains("KillSignal=SIGTERM").contains("NoNewPrivileges=true");
  }

  /** The unit's directives, without comments: the last value of each key. */
  private static Map<String, String> directives(Path unit) throws IOException {
    Map<String, String> d = new TreeMap<>();
    for (String line : Files.readAllLines(unit)) {
      if (!line.startsWith("#") && line.contains("=")) {
        d.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
      }
    }
    return d;
  }

  /**
   * The SIGTERM reaches the JVM only (in-flight ipmitool children finish), and the hardening is on
   * except what a JVM cannot live with (MemoryDenyWriteExecute: the JIT writes code).
   */
  @Test
  void systemdUnitStopsTheJvmFirstAndIsHardened() throws Exception {
    Map<String, String> unit = directives(Path.of("systemd/bamel.service"));
    assertThat(unit)
        .containsEntry("KillMode", "mixed")
        .containsEntry("SystemCallFilter", "@system-service")
        .containsEntry("SystemCallArchitectures", "native")
        .containsEntry("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6 AF_NETLINK")
        .containsEntry("ProtectClock", "true")
        .containsEntry("ProtectKernelLogs", "true")
        .containsEntry("RestrictNamespaces", "true")
        .containsEntry("UMask", "0077")
        .containsEntry("NoNewPrivileges", "true")
        .containsEntry("ProtectSystem", "strict")
        .containsEntry("ReadWritePaths", "/var/lib/bamel")
        .containsEntry("PrivateTmp", "true")
        .containsEntry("ProtectHome", "true")
        .containsEntry("LockPersonality", "true")
        .containsEntry("CapabilityBoundingSet", "")
        .doesNotContainKey("MemoryDenyWriteExecute");
  }

  /**
   * Where systemd-analyze is installed, its offline security rating of the unit is the one
   * docs/operations.md reports, and at most 2.0.
   */
  @Test
  void systemdExposureIsTheOneDocumented() throws Exception {
    Path analyze = Path.of("/usr/bin/systemd-analyze");
    assumeTrue(Files.isExecutable(analyze), "systemd-analyze is not installed");
    Process p =
        new ProcessBuilder(analyze.toString(), "security", "--offline=yes", "systemd/bamel.service")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Matcher m =
        Pattern.compile("Overall exposure level for bamel.service: (\\d+\\.\\d)").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    String level = m.group(1);
    assertThat(Double.parseDouble(level)).as(out).isLessThanOrEqualTo(2.0);
    assertThat(Files.readString(Path.of("../docs/operations.md")))
        .contains("exposure level " + level + " OK");
    assertThat(Files.readString(Path.of("systemd/bamel.service")))
        .contains("rates this unit " + level + " OK");
  }

  /**
   * The image: a Debian slim runtime stage with Debian's ipmitool and no package lists left, the
   * Java runtime copied from the JRE stage, the same non-root user as the Deployment, nothing
   * declared writable.
   */
  @Test
  void containerImageHasIpmitoolAndRunsAsTheDeploymentsUser() throws Exception {
    List<String> lines = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : Files.readAllLines(Path.of("Dockerfile"))) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      if (line.endsWith("\\")) {
        current.append(line, 0, line.length() - 1).append(' ');
      } else {
        lines.add(current.append(line).toString().replaceAll("\\s+", " ").trim());
        current = new StringBuilder();
      }
    }
    List<String> from = lines.stream().filter(l -> l.startsWith("FROM ")).toList();
    assertThat(from).hasSize(2);
    assertThat(from.get(1)).matches("FROM debian:[a-z]+-slim");
    List<String> runtime = lines.subList(lines.indexOf(from.get(1)), lines.size());
    String run = String.join("\n", runtime.stream().filter(l -> l.startsWith("RUN ")).toList());
    assertThat(run)
        .contains("apt-get install -y --no-install-recommends ipmitool")
        .contains("rm -rf /var/lib/apt/lists/*")
        .contains("--uid 10001");
    assertThat(runtime)
        .contains("USER 10001:10001")
        .contains("COPY --from=jre /opt/java/openjdk /opt/java/openjdk")
        .contains("ENTRYPOINT [\"/opt/bamel/bin/bamel\"]")
        .noneMatch(l -> l.startsWith("VOLUME"));
    String deployment = Files.readString(Path.of("kubernetes/base/deployment.yaml"));
    assertThat(deployment)
        .contains("runAsUser: 10001")
        .contains("readOnlyRootFilesystem: true")
        .contains("mountPath: /tmp");
  }

  /**
   * The unit hands the secrets read once at start to bamel through LoadCredential= (so their
   * sources stay root's), the config names exactly those copies, and the files bamel re-reads (the
   * API certificate, reloaded when renewed) are under the read-only /etc/bamel.
   */
  @Test
  void systemdSecretsComeThroughCredentialsAndTheApiListensWithTlsOnly() throws Exception {
    String unit = Files.readString(Path.of("systemd/bamel.service"));
    Map<String, String> credentials = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^LoadCredential=([^:]+):(\\S+)$").matcher(unit);
    while (m.find()) {
      credentials.put(m.group(1), m.group(2));
    }
    assertThat(credentials)
        .containsEntry("tokens", "/etc/bamel/tokens")
        .containsEntry("etcd-client.key", "/etc/bamel/etcd/client.key");
    assertThat(unit).contains("ReadOnlyPaths=/etc/bamel").contains("UMask=0077");

    ServerConfig config = ConfigLoader.load(Path.of("systemd/config.yaml"), Map.of(), Map.of());
    String dir = "/run/credentials/bamel.service/";
    List<String> fromCredentials =
        Stream.of(config.auth().tokensFile(), config.etcd().keyFile())
            .filter(f -> f.startsWith(dir))
            .map(f -> f.substring(dir.length()))
            .toList();
    assertThat(fromCredentials).containsExactlyInAnyOrderElementsOf(credentials.keySet());
    assertThat(config.http().host()).isEqualTo("0.0.0.0");
    assertThat(config.http().tls().certFile()).startsWith("/etc/bamel/tls/");
    assertThat(config.http().tls().keyFile()).startsWith("/etc/bamel/tls/");
    assertThat(config.bmc().requireAllowList()).isTrue();
    assertThat(SecurityWarnings.of(config)).isEmpty();
  }
}
