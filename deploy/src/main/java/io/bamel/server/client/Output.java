package io.bamel.server.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.util.Locale;

/**
 * The {@code -o} formats of {@code bamel get}: a table ({@code -o} absent), a wider table, the
 * API's JSON (indented), the same as YAML, or {@code kind/name} lines.
 */
public enum Output {
  /** The default table. */
  TABLE,
  /** The table with more columns. */
  WIDE,
  /** The API's JSON, indented. */
  JSON,
  /** The API's JSON as YAML. */
  YAML,
  /** One {@code node/<id>} or {@code pool/<name>} per line. */
  NAME;

  /** The format named by {@code -o} (null: the table). */
  public static Output parse(String text) {
    if (text == null) {
      return TABLE;
    }
    try {
      return valueOf(text.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown output format " + text + "; use wide, json, yaml or name");
    }
  }

  /** {@code value} as indented JSON or YAML (for {@link #JSON} and {@link #YAML}). */
  public String document(JsonNode value) {
    try {
      if (this == YAML) {
        ObjectMapper yaml =
            new ObjectMapper(
                YAMLFactory.builder()
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .build());
        return yaml.writeValueAsString(value);
      }
      return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n";
    } catch (JsonProcessingException e) {
      throw new ClientException("cannot format the answer: " + e.getOriginalMessage());
    }
  }
}
