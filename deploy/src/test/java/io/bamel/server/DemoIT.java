package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code bamel demo} as {@code make run} starts it (its default settings, but for a free port, so
 * the test does not depend on 8080, and {@code --speed 3}: its whole timeline three times faster,
 * see {@code DemoTimelineTest}): it prints the console's address first, and the path of the admin
 * token's file, not the token; within the two minutes of demo time a person sees, through
 * the API, a node power on and reach ready (a scale-up) and a node drain and power off (a
 * scale-down); then Ctrl-C (SIGINT to its process group) stops it in order, its etcd last, with
 * exit code 0. The bound is 150 s of demo time (50 s at speed 3) from the banner, a margin for a
 * loaded machine: it is how long a behaviour may take to show, not a speed assertion.
 */
class DemoIT {

  /** How many times faster than a person's demo the test runs it. */
  private static final int SPEED = 3;

  private static final Duration WITHIN = Duration.ofSeconds(150).dividedBy(SPEED);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> ON_STATES =
      Set.of("powering-on", "joining", "ready", "draining", "powering-off");
  private final HttpClient http = HttpClient.newHttpClient();

  private JsonNode get(String url, String token) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  /** Whether the node's history shows it draining and, after that, off. */
  private static boolean drainedThenOff(JsonNode events) {
    boolean draining = false;
    for (JsonNode e : events.path("items")) {
      String to = e.path("to").asText();
      if (to.equals("draining")) {
        draining = true;
      } else if (draining && to.equals("off")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void showsAScaleUpAndAScaleDownWithinTwoMinutesThenStopsInOrderOnCtrlC() throws Exception {
    try (BamelProcess demo =
        BamelProcess.startAsForegroundGroup(
            Map.of(), "demo", "--port", "0", "--speed", String.valueOf(SPEED))) {
      int port = demo.port(Duration.ofSeconds(90));
      long start = System.nanoTime();
      String base = "http://127.0.0.1:" + port;
      // The token is in a file only its owner can read, and on no line of the output.
      Path tokenFile = Path.of(demo.valueAfter("admin token file:", Duration.ofSeconds(10)));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
          .isEqualTo("rw-------");
      String token = Files.readString(tokenFile).strip();
      assertThat(token).startsWith("bml_");
      assertThat(demo.valueAfter("try:", Duration.ofSeconds(1)))
          .contains("$(cat " + tokenFile + ")");
      assertThat(demo.valueAfter("API:", Duration.ofSeconds(1))).startsWith("http://127.0.0.1:");
      // Its embedded etcd, and the etcdctl command that reaches it with the client certificate.
      String etcd = demo.valueAfter("  etcd:    ", Duration.ofSeconds(1));
      assertThat(etcd).startsWith("https://127.0.0.1:");
      String etcdctl = demo.valueAfter("  etcdctl: ", Duration.ofSeconds(1));
      Path etcdDir = tokenFile.resolveSibling("etcd");
      assertThat(etcdctl)
          .isEqualTo(
              "etcdctl --endpoints="
                  + etcd
                  + " --cacert="
                  + etcdDir.resolve("tls/ca.crt")
                  + " --cert="
                  + etcdDir.resolve("tls/client.crt")
                  + " --key="
                  + etcdDir.resolve("tls/client.key"));
      // The console's address comes first; the sign-in needs the token from the file, which is
      // in no URL.
      assertThat(demo.valueAfter("bamel demo console:", Duration.ofSeconds(1)))
          .isEqualTo(base + "/ui/");
      List<String> banner = demo.lines();
      int consoleLine = indexOf(banner, "bamel demo console:");
      assertThat(consoleLine).isLessThan(indexOf(banner, "admin token file:"));
      assertThat(consoleLine).isLessThan(indexOf(banner, "API:"));
      HttpResponse<String> page =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/ui/")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("bamel console");

      String ready = null;
      String drained = null;
      Set<String> wasOn = new HashSet<>();
      long deadline = start + WITHIN.toNanos();
      while ((ready == null || drained == null) && System.nanoTime() < deadline) {
        for (JsonNode node : get(base + "/api/v1/nodes?limit=100", token).path("items")) {
          String id = node.path("id").asText();
          String state = node.path("status").path("state").asText();
          if (state.equals("ready") && ready == null) {
            ready = id + " after " + seconds(start) + " s";
          }
          if (ON_STATES.contains(state)) {
            wasOn.add(id);
          } else if (state.equals("off") && wasOn.contains(id) && drained == null) {
            if (drainedThenOff(get(base + "/api/v1/nodes/" + id + "/events", token))) {
              drained = id + " after " + seconds(start) + " s";
            }
          }
        }
        Thread.sleep(1000 / SPEED);
      }
      String decisions =
          String.join(
              "\n", demo.lines().stream().filter(l -> l.contains("pool decision")).toList());
      assertThat(ready)
          .as("a node ready within %s; pool decisions:\n%s", WITHIN, decisions)
          .isNotNull();
      assertThat(drained)
          .as("a node drained and off within %s; pool decisions:\n%s", WITHIN, decisions)
          .isNotNull();
      System.out.println(
          "demo at speed " + SPEED + ": ready " + ready + "; drained and off " + drained);

      String metrics =
          http.send(
                  HttpRequest.newBuilder(URI.create(base + "/metrics"))
                      .header("Authorization", "Bearer " + token)
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics).contains("bamel_scale_decisions_total", "bamel_power_operations_total");
      assertThat(demo.lines())
          .anyMatch(l -> l.contains("pool decision") && l.contains("direction=up"))
          .anyMatch(l -> l.contains("pool decision") && l.contains("direction=down"));

      // Ctrl-C in the terminal (SIGINT to the demo's whole process group, as make run has it):
      // the etcd child is in a session of its own, so only bamel gets the SIGINT; bamel stops
      // everything that uses etcd, then etcd with a SIGTERM of its own, and exits 0.
      ProcessHandle bamel = ProcessHandle.of(demo.pid()).orElseThrow();
      ProcessHandle etcdProcess =
          bamel
              .descendants()
              .filter(p -> p.info().command().orElse("").endsWith("/etcd"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no etcd child of the demo"));
      // The demo deletes its directory when it stops: read etcd's log through a handle opened now.
      try (InputStream etcdLog = Files.newInputStream(etcdDir.resolve("bamel.log"))) {
        assertThat(demo.interruptGroup(Duration.ofSeconds(60))).isZero();
        ShutdownLog.assertOrderlyStop(demo.lines(), true);
        String log = new String(etcdLog.readAllBytes(), StandardCharsets.UTF_8);
        List<String> signals =
            log.lines().filter(l -> l.contains("received signal; shutting down")).toList();
        assertThat(signals)
            .as("etcd's signals (SIGINT would say interrupt):\n%s", log)
            .singleElement()
            .asString()
            .contains("\"signal\":\"terminated\"");
      }
      assertThat(etcdProcess.isAlive()).as("etcd left running").isFalse();
      assertThat(bamel.descendants()).as("children left running").isEmpty();
      assertThat(demo.lines()).noneMatch(l -> l.contains(token));
    }
  }

  private static int indexOf(List<String> lines, String text) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    throw new AssertionError("no line contains " + text);
  }

  private static long seconds(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos).toSeconds();
  }
}
