package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/bamel server} on its embedded etcd, as a user runs it. */
class ServerProcessIT {

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(String url, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The admin token of this start, read from the file whose path the banner shows; the file is its
   * owner's only.
   */
  private static String adminToken(BamelProcess bamel, Path expectedFile) throws Exception {
    Path file = Path.of(bamel.valueAfter("admin token file:", Duration.ofSeconds(90)));
    assertThat(file).isEqualTo(expectedFile);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    String token = Files.readString(file).strip();
    assertThat(token).startsWith("bml_");
    return token;
  }

  /** The token is on no line of the output: neither the banner nor any log. */
  private static void assertTokenNeverShown(List<String> lines, String token) {
    assertThat(lines).as("lines carrying the admin token").noneMatch(l -> l.contains(token));
  }

  private static int occurrences(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length())) {
      n++;
    }
    return n;
  }

  @Test
  void servesOnItsEmbeddedEtcdKeepsDataAcrossRestartsAndStopsCleanly(@TempDir Path dir)
      throws Exception {
    ReservedEtcdPorts.reserve(dir.resolve("etcd"));
    Path config =
        Files.writeString(
            dir.resolve("config.yaml"),
            "http:\n  port: 0\n  host: 127.0.0.1\n  maxBodyBytes: 4096\netcd:\n  dataDir: "
                + dir.resolve("etcd")
                + "\nkubernetes:\n  mode: none\n");
    String body =
        "{\"name\":\"r1-u07\",\"serial\":\"SN1\",\"mgmtAddress\":\"https://127.0.0.1:9\",\"powerInterface\":\"redfish\",\"pool\":\"general\"}";
    Path tokenFile = dir.resolve("admin-token").toAbsolutePath();
    try (BamelProcess bamel =
        BamelProcess.start(Map.of(), "server", "--config", config.toString())) {
      String token = adminToken(bamel, tokenFile);
      String base = "http://127.0.0.1:" + bamel.port(Duration.ofSeconds(10));
      // The banner names the web console, which needs no token to load.
      assertThat(bamel.valueAfter("console:", Duration.ofSeconds(1)))
          .isEqualTo("http://localhost:" + bamel.port(Duration.ofSeconds(1)) + "/ui/");
      // The banner shows how to reach the embedded etcd with its certificate.
      assertThat(bamel.valueAfter("etcdctl:", Duration.ofSeconds(1)))
          .startsWith("etcdctl --endpoints=https://127.0.0.1:")
          .contains(
              "--cacert=" + dir.resolve("etcd/tls/ca.crt").toAbsolutePath(),
              "--cert=" + dir.resolve("etcd/tls/client.crt").toAbsolutePath(),
              "--key=" + dir.resolve("etcd/tls/client.key").toAbsolutePath());
      assertThat(get(base + "/healthz", null).statusCode()).isEqualTo(200);
      assertThat(get(base + "/readyz", null).statusCode()).isEqualTo(200);
      assertThat(get(base + "/api/v1/nodes", null).statusCode()).isEqualTo(401);
      HttpResponse<String> put =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/api/v1/nodes/r1-u07"))
                  .header("Authorization", "Bearer " + token)
                  .header("Content-Type", "application/json")
                  .PUT(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
      // http.maxBodyBytes from the config file reaches the API.
      HttpResponse<String> tooLarge =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/api/v1/nodes/r1-u08"))
                  .header("Authorization", "Bearer " + token)
                  .header("Content-Type", "application/json")
                  .PUT(HttpRequest.BodyPublishers.ofString(body + " ".repeat(8192)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(413);
      assertThat(tooLarge.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
      assertThat(get(base + "/metrics", token).body()).contains("bamel_http_requests_total");
      assertThat(bamel.terminate(Duration.ofSeconds(60))).isZero();
      ShutdownLog.assertOrderlyStop(bamel.lines(), true);
      assertTokenNeverShown(bamel.lines(), token);
    }
    assertThat(Files.readString(dir.resolve("tokens")))
        .contains("local-admin admin sha256:")
        .doesNotContain("bml_");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("tokens"))))
        .isEqualTo("rw-------");
    // The embedded etcd stopped by itself on SIGTERM (a SIGKILL would leave no such lines).
    Path etcdLog = dir.resolve("etcd/bamel.log");
    assertThat(occurrences(Files.readString(etcdLog), "received signal; shutting down"))
        .isEqualTo(1);
    assertThat(occurrences(Files.readString(etcdLog), "closed etcd server")).isEqualTo(1);

    // A restart finds the same data, and a new admin token replaces the old one.
    String first = Files.readString(tokenFile).strip();
    try (BamelProcess bamel =
        BamelProcess.start(Map.of(), "server", "--config", config.toString())) {
      String token = adminToken(bamel, tokenFile);
      assertThat(token).isNotEqualTo(first);
      String base = "http://127.0.0.1:" + bamel.port(Duration.ofSeconds(10));
      assertThat(get(base + "/api/v1/nodes/r1-u07", first).statusCode()).isEqualTo(401);
      HttpResponse<String> node = get(base + "/api/v1/nodes/r1-u07", token);
      assertThat(node.statusCode()).isEqualTo(200);
      assertThat(node.body()).contains("SN1");
      assertThat(bamel.terminate(Duration.ofSeconds(60))).isZero();
      ShutdownLog.assertOrderlyStop(bamel.lines(), true);
      assertTokenNeverShown(bamel.lines(), token);
    }
    assertThat(occurrences(Files.readString(dir.resolve("etcd/bamel.log")), "closed etcd server"))
        .isEqualTo(2);
    assertThat(Files.readAllLines(dir.resolve("tokens")))
        .filteredOn(l -> l.startsWith("local-admin"))
        .hasSize(1);
  }

  @Test
  void aControllerOnlyProcessServesHealthAndGuardedMetricsAndLogsJson(@TempDir Path dir)
      throws Exception {
    String token = io.bamel.inventory.api.security.TokenStore.newToken();
    Path tokens =
        Files.writeString(
            dir.resolve("tokens"),
            io.bamel.inventory.api.security.TokenStore.line("prom", "read", token) + "\n");
    ReservedEtcdPorts.reserve(dir.resolve("etcd"));
    try (BamelProcess bamel =
        BamelProcess.start(
            Map.of(),
            "server",
            "--components",
            "node-controller,pool-controller",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--etcd-data-dir",
            dir.resolve("etcd").toString(),
            "--tokens-file",
            tokens.toString(),
            "--kubernetes",
            "none",
            "--log-format",
            "json")) {
      bamel.await(l -> l.contains("bamel server is running"), Duration.ofSeconds(90), "start-up");
      String base = "http://127.0.0.1:" + bamel.port(Duration.ofSeconds(10));
      assertThat(get(base + "/healthz", null).statusCode()).isEqualTo(200);
      assertThat(get(base + "/readyz", null).statusCode()).isEqualTo(200);
      assertThat(get(base + "/metrics", null).statusCode()).isEqualTo(401);
      assertThat(get(base + "/metrics", token).body()).contains("bamel_leader");
      assertThat(get(base + "/api/v1/nodes", token).statusCode()).isEqualTo(404);
      assertThat(bamel.terminate(Duration.ofSeconds(60))).isZero();
      ShutdownLog.assertOrderlyStop(bamel.lines(), "health and metrics endpoints", true);
      JsonLog.assertOneObjectPerLine(bamel.lines());
    }
  }

  @Test
  void aBadSettingIsAClearErrorAndExitCode2(@TempDir Path dir) throws Exception {
    try (BamelProcess bamel = BamelProcess.start(Map.of("BAMEL_HTTP_PORT", "eighty"), "server")) {
      bamel.await(
          l -> l.contains("'http.port' must be a number"), Duration.ofSeconds(60), "the error");
      assertThat(bamel.awaitExit(Duration.ofSeconds(30))).isEqualTo(2);
    }
    try (BamelProcess bamel = BamelProcess.start(Map.of("BAMEL_NODE_NAME", "n1"), "server")) {
      bamel.await(
          l -> l.contains("unknown environment variable BAMEL_NODE_NAME"),
          Duration.ofSeconds(60),
          "the error");
      assertThat(bamel.awaitExit(Duration.ofSeconds(30))).isEqualTo(2);
    }
  }
}
