package io.bamel.server.client.bmc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The result of one {@code bamel bmc} run: ordered fields printed as one JSON object or as {@code
 * key: value} lines for a person. Pure.
 */
public final class BmcOutcome {

  private static final ObjectMapper JSON =
      new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT);

  private final Map<String, Object> fields = new LinkedHashMap<>();

  /** Adds a field (kept in insertion order); returns this. */
  public BmcOutcome put(String key, Object value) {
    fields.put(key, value);
    return this;
  }

  /** The fields. */
  public Map<String, Object> fields() {
    return Map.copyOf(fields);
  }

  /** One JSON object on one line. */
  public String json() {
    try {
      return JSON.writeValueAsString(fields);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code key: value} lines; absent values show as {@code -}. */
  public String text() {
    return fields.entrySet().stream()
        .map(e -> e.getKey() + ": " + (e.getValue() == null ? "-" : String.valueOf(e.getValue())))
        .collect(Collectors.joining(System.lineSeparator()));
  }
}
