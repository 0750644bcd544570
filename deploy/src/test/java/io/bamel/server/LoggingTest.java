package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.inventory.logging.FailureLog;
import io.bamel.inventory.logging.FailureNotices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The log formats as {@link Logging} configures them, read from real standard output. */
class LoggingTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final PrintStream original = System.out;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @AfterEach
  void restore() {
    System.setOut(original);
    Logging.configure("text", "info");
  }

  private List<String> run(String format, Runnable logging) {
    LoggerFactory.getILoggerFactory(); // logback's own start-up messages are not under test
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    Logging.configure(format, "info");
    logging.run();
    System.out.flush();
    System.setOut(original);
    List<String> lines = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        lines.add(line);
      }
    }
    return lines;
  }

  private static void logSome() {
    Logger log = LoggerFactory.getLogger("io.bamel.node.NodeReconciler");
    FailureLog bmc =
        new FailureLog(
            log,
            "node",
            "bmc-status",
            Clock.fixed(Instant.parse("2026-11-25T12:00:00Z"), ZoneOffset.UTC),
            new FailureNotices(Duration.ofMinutes(15), 10));
    bmc.failed("r1-u07", "TLS", "TLS: certificate of 192.0.2.17 not trusted");
    bmc.failed("r1-u07", "TLS", "TLS: certificate of 192.0.2.17 not trusted"); // suppressed
    bmc.recovered("r1-u07");
    MDC.put("pool", "gpu");
    try {
      log.info("plain line with {} in place", "an argument");
    } finally {
      MDC.remove("pool");
    }
    log.warn("with an exception", new IllegalStateException("boom"));
  }

  @Test
  void jsonLinesCarryIsoTimestampsTopLevelFieldsAndNoNulls() throws Exception {
    List<String> lines = run("json", LoggingTest::logSome);
    assertThat(lines).hasSize(4);
    List<JsonNode> events = new ArrayList<>();
    for (String line : lines) {
      JsonNode e = JSON.readTree(line);
      events.add(e);
      assertThat(e.path("timestamp").asText())
          .as(line)
          .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
      assertThat(Instant.parse(e.path("timestamp").asText()))
          .isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(1));
      for (Iterator<String> names = e.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        assertThat(e.get(name).isNull()).as("%s is null in %s", name, line).isFalse();
      }
      assertThat(line).doesNotContain("null");
      assertThat(e.has("message") || e.has("arguments") || e.has("context")).isFalse();
    }
    JsonNode warn = events.get(0);
    assertThat(warn.path("level").asText()).isEqualTo("WARN");
    assertThat(warn.path("node").asText()).isEqualTo("r1-u07");
    assertThat(warn.path("action").asText()).isEqualTo("bmc-status");
    assertThat(warn.path("reason").asText())
        .isEqualTo("TLS: certificate of 192.0.2.17 not trusted");
    assertThat(warn.path("formattedMessage").asText()).contains("node=r1-u07");
    JsonNode recovered = events.get(1);
    assertThat(recovered.path("level").asText()).isEqualTo("INFO");
    assertThat(recovered.path("suppressed").isNumber()).isTrue();
    assertThat(recovered.path("suppressed").asLong()).isEqualTo(1);
    JsonNode plain = events.get(2);
    assertThat(plain.path("pool").asText()).as("MDC entries are fields").isEqualTo("gpu");
    assertThat(plain.path("formattedMessage").asText())
        .isEqualTo("plain line with an argument in place");
    assertThat(plain.has("throwable")).isFalse();
    JsonNode failed = events.get(3);
    assertThat(failed.path("throwable").path("className").asText())
        .isEqualTo("java.lang.IllegalStateException");
    assertThat(failed.path("throwable").path("stackTrace").asText()).contains("boom");
  }

  @Test
  void textLinesSayTheFieldsAsKeyValuePairsWithoutNulls() {
    List<String> lines = run("text", LoggingTest::logSome);
    assertThat(lines.get(0))
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z WARN  NodeReconciler .*")
        .contains(
            "bmc-status failed: node=r1-u07",
            "reason=\"TLS: certificate of 192.0.2.17 not trusted\"");
    assertThat(lines).noneMatch(l -> l.contains("=null"));
  }

  /** A Redfish error message holding a line break and a fake log line (security issue 30). */
  static final String FORGED = "boom\n2026-11-28 INFO forged line\r\u2028\u0085\u001b[2J";

  private static void logForged() {
    Logger log = LoggerFactory.getLogger("io.bamel.node.NodeReconciler");
    log.atInfo().addKeyValue("reason", FORGED).log("node r1-u07: REQUEST_FAILED: {}", FORGED);
    log.warn(
        "power action failed", new IllegalStateException(FORGED, new RuntimeException(FORGED)));
  }

  @Test
  void attack_bmcErrorForgesALogLine_textFormat() {
    List<String> lines = run("text", LoggingTest::logForged);
    assertThat(lines.get(0))
        .endsWith(
            "node r1-u07: REQUEST_FAILED: boom\\n2026-11-28 INFO forged line\\r\\u2028\\u0085\\u001b[2J");
    assertThat(lines).noneMatch(l -> l.startsWith("2026-11-28 INFO forged line"));
    assertThat(lines)
        .allMatch(
            l -> l.chars().noneMatch(c -> c == 0x1b || c == 0x85 || c == 0x2028 || c == '\r'));
    assertThat(lines.get(1)).contains("WARN  NodeReconciler power action failed");
    assertThat(lines.get(2))
        .isEqualTo(
            "java.lang.IllegalStateException: boom\\n2026-11-28 INFO forged line\\r\\u2028\\u0085\\u001b[2J");
    assertThat(lines).anyMatch(l -> l.startsWith("Caused by: java.lang.RuntimeException: boom\\n"));
  }

  @Test
  void attack_bmcErrorForgesALogLine_jsonFormat() throws Exception {
    List<String> lines = run("json", LoggingTest::logForged);
    assertThat(lines).hasSize(2);
    JsonNode info = JSON.readTree(lines.get(0));
    String escaped = "boom\\n2026-11-28 INFO forged line\\r\\u2028\\u0085\\u001b[2J";
    assertThat(info.path("formattedMessage").asText()).endsWith(escaped);
    assertThat(info.path("reason").asText()).isEqualTo(escaped);
    JsonNode warn = JSON.readTree(lines.get(1));
    assertThat(warn.path("throwable").path("message").asText()).isEqualTo(escaped);
    assertThat(warn.path("throwable").path("stackTrace").asText())
        .doesNotContain("\n2026-11-28 INFO forged line")
        .contains("Caused by: java.lang.RuntimeException: " + escaped);
  }
}
