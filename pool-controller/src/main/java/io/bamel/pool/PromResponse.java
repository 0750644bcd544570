package io.bamel.pool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the answer of a Prometheus instant query ({@code GET /api/v1/query}): {@code
 * {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[ts,"v"]}]}}}
 * gives one value per series; {@code "scalar"} gives one value; {@code "status":"error"} and any
 * other shape are errors. Values are strings in the API ({@code "NaN"}, {@code "+Inf"} included).
 * Pure.
 */
public final class PromResponse {

  private static final ObjectMapper JSON = new ObjectMapper();

  private PromResponse() {}

  /**
   * The sample values of {@code body}.
   *
   * @throws IOException when the body is not a successful vector or scalar answer
   */
  public static List<Double> values(String body) throws IOException {
    JsonNode root = JSON.readTree(body);
    if (root == null || !root.isObject()) {
      throw new IOException("not a Prometheus API answer");
    }
    if (!"success".equals(root.path("status").asText())) {
      throw new IOException(
          "Prometheus error "
              + root.path("errorType").asText("?")
              + ": "
              + root.path("error").asText("(no message)"));
    }
    JsonNode data = root.path("data");
    String type = data.path("resultType").asText();
    JsonNode result = data.path("result");
    List<Double> values = new ArrayList<>();
    switch (type) {
      case "vector" -> {
        if (!result.isArray()) {
          throw new IOException("vector without a result array");
        }
        for (JsonNode series : result) {
          values.add(sample(series.path("value")));
        }
      }
      case "scalar" -> values.add(sample(result));
      default -> throw new IOException("unsupported resultType " + type + " for a trigger");
    }
    return values;
  }

  private static double sample(JsonNode pair) throws IOException {
    if (!pair.isArray() || pair.size() != 2) {
      throw new IOException("a sample is not [timestamp, \"value\"]");
    }
    String text = pair.get(1).asText();
    try {
      return switch (text) {
        case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
        case "-Inf" -> Double.NEGATIVE_INFINITY;
        default -> Double.parseDouble(text);
      };
    } catch (NumberFormatException e) {
      throw new IOException("not a sample value: " + text, e);
    }
  }
}
