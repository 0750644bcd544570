package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the output of {@code bamel server --log-format json}: apart from the start-up banner, every
 * line is one JSON object carrying the formatted message (placeholders filled in), with neither the
 * raw pattern nor its arguments nor the logger context.
 */
final class JsonLog {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private JsonLog() {}

  /** Asserts the format; returns the formatted messages in order. */
  static List<String> assertOneObjectPerLine(List<String> lines) throws JsonProcessingException {
    String output = String.join("\n", lines);
    List<String> messages = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("bamel server is running") || line.startsWith("  ")) {
        continue; // the banner, printed for a person
      }
      JsonNode event = JSON.readTree(line);
      assertThat(event.isObject()).as(line).isTrue();
      assertThat(event.has("level") && event.has("loggerName") && event.has("timestamp"))
          .as(line)
          .isTrue();
      assertThat(event.has("message") || event.has("arguments") || event.has("context"))
          .as("raw message, arguments or context in %s", line)
          .isFalse();
      String message = event.path("formattedMessage").asText(null);
      assertThat(message).as(line).isNotNull().doesNotContain("{}");
      messages.add(message);
    }
    assertThat(messages).as(output).isNotEmpty();
    // A message logged with arguments shows them in place.
    assertThat(messages)
        .as(output)
        .anyMatch(m -> m.matches("shutdown: etcd client closed in \\d+ ms"));
    return messages;
  }
}
