package io.bamel.pool.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.pool.Resources;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The JSON form of a demand history: what is written, and what a reader refuses. */
class HistoryJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Instant MONDAY = Instant.parse("2026-11-23T00:00:00Z");

  private static final DemandHistory LEARNED = learn();

  /** Nine days of a daily swing between 20 and 80 cores, observed every 5 minutes. */
  private static DemandHistory learned() {
    return LEARNED;
  }

  private static DemandHistory learn() {
    DemandHistory h = DemandHistory.empty();
    for (Instant t = MONDAY; t.isBefore(MONDAY.plus(Duration.ofDays(9))); t = t.plusSeconds(300)) {
      long hour = t.getEpochSecond() / 3600 % 24;
      h =
          h.observe(
              t, Resources.of("cpu", 20 + 60 * Math.sin(Math.PI * hour / 24), "memory", 96e9));
    }
    return h;
  }

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /** The JSON of {@link #learned()} changed by {@code edit}. */
  private static byte[] edited(Consumer<ObjectNode> edit) throws Exception {
    ObjectNode root = (ObjectNode) JSON.readTree(HistoryJson.write(learned()));
    edit.accept(root);
    return JSON.writeValueAsBytes(root);
  }

  @Test
  void aLearnedHistoryReadsBackEqualAndWritesTheSameBytes() throws Exception {
    DemandHistory h = learned();
    byte[] json = HistoryJson.write(h);
    DemandHistory back = HistoryJson.read(json);
    assertThat(back).isEqualTo(h);
    assertThat(HistoryJson.write(back)).isEqualTo(json);
    Instant tuesday = MONDAY.plus(Duration.ofDays(8)).plus(Duration.ofHours(12));
    assertThat(back.expectedPeak(tuesday, Duration.ofMinutes(10)))
        .isEqualTo(h.expectedPeak(tuesday, Duration.ofMinutes(10)));

    JsonNode tree = JSON.readTree(json);
    assertThat(tree.fieldNames())
        .toIterable()
        .containsExactly(
            "version", "openHour", "openPeak", "learnedAtHour", "lowerInARow", "peaks");
    assertThat(tree.get("version").intValue()).isEqualTo(1);
    assertThat(tree.get("openHour").textValue()).isEqualTo("2026-12-01T23:00:00Z");
    assertThat(tree.get("learnedAtHour")).hasSize(168);
    assertThat(tree.get("peaks").get("cpu")).hasSize(168);
    assertThat(tree.get("peaks").get("memory").get(0).doubleValue()).isEqualTo(96e9);
    // Monday 12:00 UTC is index 12, last learned on the second Monday (2026-11-30).
    assertThat(tree.get("learnedAtHour").get(12).longValue())
        .isEqualTo(Instant.parse("2026-11-30T12:00:00Z").getEpochSecond() / 3600);
    assertThat(tree.get("peaks").get("cpu").get(12).doubleValue()).isEqualTo(80);
  }

  @Test
  void anEmptyHistoryReadsBackEmpty() {
    byte[] json = HistoryJson.write(DemandHistory.empty());
    assertThat(new String(json, StandardCharsets.UTF_8))
        .startsWith("{\"version\":1,\"learnedAtHour\":[0,");
    assertThat(HistoryJson.read(json)).isEqualTo(DemandHistory.empty());
  }

  @Test
  void theExampleOfTheEtcdSchemaPageIsAHistoryWrittenAsItShows() throws Exception {
    String doc =
        java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "etcd-schema.md"));
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "(?m)^`/baremetal/pools/gpu/history`[^\n]*\n(?:[^\n]*\n)*?```json\n(.*?)```",
                java.util.regex.Pattern.DOTALL)
            .matcher(doc);
    assertThat(m.find()).as("docs/etcd-schema.md has an example of the history key").isTrue();
    String example = m.group(1).replaceAll("\\s+", "");
    DemandHistory h = HistoryJson.read(bytes(example));
    assertThat(new String(HistoryJson.write(h), StandardCharsets.UTF_8)).isEqualTo(example);
    assertThat(h.learnedHours()).isPositive();
  }

  @Test
  void unknownFieldsAreIgnored() throws Exception {
    byte[] json = edited(r -> r.put("addedByANewerBamel", true));
    assertThat(HistoryJson.read(json)).isEqualTo(learned());
  }

  private static void refused(byte[] json, String message) {
    assertThatThrownBy(() -> HistoryJson.read(json))
        .isInstanceOf(HistoryFormatException.class)
        .hasMessageStartingWith("demand history: ")
        .hasMessageContaining(message);
  }

  @Test
  void anotherVersionIsRefused() throws Exception {
    refused(edited(r -> r.put("version", 2)), "version 2 is not supported (this bamel reads 1)");
    refused(edited(r -> r.put("version", "1")), "no integer \"version\"");
    refused(edited(r -> r.remove("version")), "no integer \"version\"");
    refused(edited(r -> r.put("version", 1.5)), "no integer \"version\"");
  }

  @Test
  void whatIsNotJsonOrTooLargeIsRefused() throws Exception {
    refused(bytes("{\"version\":1,"), "not valid JSON (line 1");
    refused(bytes("[1,2]"), "not a JSON object");
    refused(bytes(""), "not a JSON object");
    refused(bytes("{\"version\":1,\"version\":1}"), "not valid JSON");
    byte[] big = new byte[HistoryJson.MAX_BYTES + 1];
    java.util.Arrays.fill(big, (byte) ' ');
    refused(big, "at most 65536 are read");
    refused(bytes("{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":1}}}}}"), "not valid JSON");
  }

  @Test
  void arraysOfAnotherLengthAreRefused() throws Exception {
    refused(
        edited(r -> ((ArrayNode) r.get("learnedAtHour")).add(0)),
        "\"learnedAtHour\" is not an array of 168 integers");
    refused(
        edited(r -> ((ArrayNode) r.get("lowerInARow")).remove(0)),
        "\"lowerInARow\" is not an array of 168 integers");
    refused(
        edited(
            r -> {
              ArrayNode huge = ((ObjectNode) r.get("peaks")).putArray("cpu");
              for (int i = 0; i < 5000; i++) {
                huge.add(1);
              }
            }),
        "\"peaks\".cpu is not an array of 168 amounts");
  }

  @Test
  void negativeOrNonFiniteAmountsAreRefused() throws Exception {
    refused(
        edited(r -> ((ArrayNode) r.get("peaks").get("cpu")).set(3, -1)),
        "\"peaks\".cpu[3] is negative");
    refused(
        edited(r -> ((ObjectNode) r.get("openPeak")).put("memory", -5)),
        "\"openPeak\".memory is negative");
    refused(
        edited(r -> ((ArrayNode) r.get("peaks").get("cpu")).set(4, "NaN")),
        "\"peaks\".cpu[4] is not a number");
    String json = new String(HistoryJson.write(learned()), StandardCharsets.UTF_8);
    refused(bytes(json.replaceFirst("\"cpu\":\\[[^,]+,", "\"cpu\":[NaN,")), "not valid JSON");
    refused(
        bytes(json.replaceFirst("\"cpu\":\\[[^,]+,", "\"cpu\":[1e999,")),
        "\"peaks\".cpu[0] is not finite");
    refused(
        edited(r -> ((ArrayNode) r.get("learnedAtHour")).set(5, -3)),
        "\"learnedAtHour\"[5] is out of range");
    refused(
        edited(r -> ((ArrayNode) r.get("lowerInARow")).set(5, 4)),
        "\"lowerInARow\"[5] is not an integer from 0 to 3");
  }

  @Test
  void inconsistentHoursAreRefused() throws Exception {
    refused(
        edited(
            r ->
                ((ArrayNode) r.get("learnedAtHour"))
                    .set(7, r.get("learnedAtHour").get(8).longValue())),
        "\"learnedAtHour\"[7] is not an hour of that hour of the week");
    refused(
        edited(r -> r.put("openHour", "2026-11-24T00:00:00Z")),
        "\"learnedAtHour\"[0] is not before \"openHour\"");
    refused(
        edited(r -> r.put("openHour", "2026-12-01T23:30:00Z")),
        "\"openHour\" is not on a whole hour");
    refused(
        edited(r -> r.put("openHour", "yesterday")), "\"openHour\" is not an ISO-8601 UTC time");
    refused(edited(r -> r.remove("openHour")), "is not before \"openHour\"");
    refused(
        bytes(
            "{\"version\":1,\"openPeak\":{\"cpu\":1},\"learnedAtHour\":"
                + zeros()
                + ",\"lowerInARow\":"
                + zeros()
                + ",\"peaks\":{}}"),
        "\"openPeak\" without \"openHour\"");
  }

  @Test
  void tooManyOrOddResourceNamesAreRefused() throws Exception {
    refused(
        edited(
            r -> {
              ObjectNode peaks = (ObjectNode) r.get("peaks");
              for (int i = 0; i < 17; i++) {
                peaks.set("r" + i, peaks.get("cpu").deepCopy());
              }
            }),
        "\"peaks\" has 19 resources; at most 16");
    refused(
        edited(
            r -> {
              ObjectNode peaks = (ObjectNode) r.get("peaks");
              ObjectNode open = (ObjectNode) r.get("openPeak");
              for (int i = 0; i < 14; i++) {
                open.put("o" + i, 1);
              }
              peaks.set("p", peaks.get("cpu").deepCopy());
            }),
        "17 resource names; at most 16");
    refused(
        edited(r -> ((ObjectNode) r.get("openPeak")).put("../etc", 1)),
        "\"openPeak\" has a key that is not a resource name");
  }

  private static String zeros() {
    return "[" + "0,".repeat(167) + "0]";
  }
}
