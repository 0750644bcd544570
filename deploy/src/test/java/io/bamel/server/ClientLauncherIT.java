package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/bamel get nodes} through the launcher: it runs on the start-up archive made at package
 * time (nearly every class from it, picocli's included), loads no server library (Jetty, Javalin,
 * jetcd, gRPC, Netty, fabric8), and a refused connection is one line on standard error, nothing on
 * standard output, exit code 1. The client commands run on the client jars alone: a copy of the
 * distribution without the server's jars lists, describes and checks a BMC.
 */
class ClientLauncherIT {

  /**
   * The jars the client commands need (names without versions): the launcher's client class path.
   */
  private static final List<String> CLIENT_JARS =
      List.of(
          "deploy-",
          "inventory-core-",
          "node-controller-",
          "power-drivers-",
          "power-spi-",
          "outbound-http-",
          "picocli-",
          "jackson-annotations-",
          "jackson-core-",
          "jackson-databind-",
          "jackson-dataformat-yaml-",
          "jackson-datatype-jsr310-",
          "snakeyaml-2",
          "slf4j-api-",
          "logback-",
          "okhttp-",
          "okio-",
          "kotlin-stdlib-",
          "failsafe-",
          "prometheus-metrics-config-",
          "prometheus-metrics-core-",
          "prometheus-metrics-model-",
          "prometheus-metrics-tracer-");

  private static final String NODE =
      "{\"id\":\"r1-u07\",\"revision\":42,\"spec\":{\"name\":\"R1-U07\",\"pool\":\"gpu\","
          + "\"rack\":\"R1\",\"powerInterface\":\"redfish\",\"labels\":{\"zone\":\"a\"},"
          + "\"powerState\":\"on\"},\"status\":{\"state\":\"ready\","
          + "\"stateSince\":\"2026-01-01T00:00:00Z\",\"powerState\":\"on\",\"nodeReady\":true}}";

  @TempDir Path dir;

  @Test
  void aClientCommandStartsFromTheArchiveWithoutServerLibraries() throws Exception {
    Path launcher = BamelProcess.launcher();
    assertThat(launcher.getParent().getParent().resolve("lib/bamel-cli.jdk")).isRegularFile();
    Path classes = dir.resolve("classes.txt");
    ProcessBuilder pb =
        new ProcessBuilder(
                List.of(launcher.toString(), "get", "nodes", "--server", "http://127.0.0.1:9"))
            .redirectError(dir.resolve("err").toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("JAVA_OPTS", "-Xlog:class+load:file=" + classes);
    pb.environment().put("BAMEL_CONFIG", dir.resolve("none.yaml").toString());
    pb.environment().remove("BAMEL_SERVER");
    Process process = pb.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).isEqualTo(1);
    assertThat(out).isEmpty();
    assertThat(Files.readString(dir.resolve("err")))
        .isEqualTo(
            "error: cannot connect to the bamel server at http://127.0.0.1:9: connection refused"
                + " (is it running? set --server, BAMEL_SERVER or server: in"
                + " ~/.config/bamel/config.yaml)\n");
    List<String> loaded = Files.readAllLines(classes);
    assertThat(loaded)
        .noneMatch(
            l ->
                l.contains(" org.eclipse.jetty.")
                    || l.contains(" io.javalin.")
                    || l.contains(" io.etcd.")
                    || l.contains(" io.grpc.")
                    || l.contains(" io.netty.")
                    || l.contains(" io.fabric8."));
    long shared = loaded.stream().filter(l -> l.contains("source: shared objects file")).count();
    assertThat(loaded.size() - shared).as("classes not from the archive").isLessThan(100);
    // Picocli's Java 5 class files, rewritten at package time by a JDK 24+ build, come from the
    // archive too: none is read from its jar.
    if (Runtime.version().feature() >= 24) {
      assertThat(loaded)
          .noneMatch(l -> l.contains(" picocli.") && !l.contains("source: shared objects file"));
    }
  }

  @Test
  void clientCommandsRunWithoutTheServerJars() throws Exception {
    Path lib = Files.createDirectories(dir.resolve("bamel/lib"));
    Path bin = Files.createDirectories(dir.resolve("bamel/bin"));
    Files.copy(BamelProcess.launcher(), bin.resolve("bamel"));
    Path real = BamelProcess.launcher().getParent().getParent().resolve("lib");
    int linked = 0;
    try (Stream<Path> jars = Files.list(real)) {
      for (Path jar : jars.filter(j -> j.toString().endsWith(".jar")).toList()) {
        String name = jar.getFileName().toString();
        if (CLIENT_JARS.stream().anyMatch(name::startsWith)) {
          Files.copy(jar, lib.resolve(name));
          linked++;
        }
      }
    }
    assertThat(linked).isBetween(CLIENT_JARS.size(), 40);
    HttpServer api =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    List<String> asked = new CopyOnWriteArrayList<>();
    api.createContext(
        "/api/v1/nodes",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          asked.add(path);
          switch (path) {
            case "/api/v1/nodes" -> answer(exchange, "{\"items\":[" + NODE + "],\"revision\":42}");
            case "/api/v1/nodes/r1-u07" -> answer(exchange, NODE);
            case "/api/v1/nodes/r1-u07/events" -> answer(exchange, "{\"items\":[]}");
            default -> exchange.sendResponseHeaders(404, -1);
          }
          exchange.close();
        });
    api.start();
    try {
      String server = "http://127.0.0.1:" + api.getAddress().getPort();
      Path launcher = bin.resolve("bamel");
      Result table = run(launcher, "get", "nodes", "--server", server);
      assertThat(table.exit).as(table.err).isZero();
      assertThat(table.out.lines().toList())
          .hasSize(2)
          .satisfies(l -> assertThat(l.get(0)).startsWith("NAME"))
          .satisfies(l -> assertThat(l.get(1)).startsWith("r1-u07").contains("gpu", "ready"));
      Result yaml = run(launcher, "get", "nodes", "-o", "yaml", "--server", server);
      assertThat(yaml.exit).as(yaml.err).isZero();
      assertThat(yaml.out).contains("- id: r1-u07").contains("zone: a");
      Result describe = run(launcher, "describe", "node", "r1-u07", "--server", server);
      assertThat(describe.exit).as(describe.err).isZero();
      assertThat(describe.out).contains("Name:").contains("r1-u07").contains("ready");
      Result bmc =
          run(
              launcher,
              "bmc",
              "status",
              "--interface",
              "redfish",
              "--address",
              "http://127.0.0.1:9",
              "--timeout",
              "5");
      assertThat(bmc.exit).isEqualTo(1);
      assertThat(bmc.err).startsWith("bamel bmc status: cannot reach GET http://127.0.0.1:9/");
      assertThat(asked).contains("/api/v1/nodes/r1-u07/events");
    } finally {
      api.stop(0);
    }
  }

  private static void answer(HttpExchange exchange, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private record Result(int exit, String out, String err) {}

  private Result run(Path launcher, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
    cmd.addAll(List.of(args));
    Path err = Files.createTempFile(dir, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("BAMEL_CONFIG", dir.resolve("none.yaml").toString());
    pb.environment().remove("BAMEL_SERVER");
    pb.environment().remove("BAMEL_TOKEN");
    pb.environment().remove("JAVA_OPTS");
    Process process = pb.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), out, Files.readString(err));
  }
}
