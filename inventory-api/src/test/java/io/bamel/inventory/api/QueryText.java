package io.bamel.inventory.api;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Text written in a test ({@code a=1&b=2}), as the maps the API's filters read. */
public final class QueryText {

  private QueryText() {}

  /**
   * {@code a=1&a=2&b=3} as each parameter to its values, in order; nothing is decoded (the tests
   * write their values plain).
   */
  public static Map<String, List<String>> values(String text) {
    Map<String, List<String>> q = new HashMap<>();
    if (!text.isEmpty()) {
      for (String pair : text.split("&")) {
        int eq = pair.indexOf('=');
        q.computeIfAbsent(pair.substring(0, eq), k -> new ArrayList<>())
            .add(pair.substring(eq + 1));
      }
    }
    return q;
  }

  /**
   * {@code a=1<separator>b=2} as each name to its value (the last one wins; null or empty: none);
   * nothing is decoded.
   */
  public static Map<String, String> pairs(String text, String separator) {
    Map<String, String> out = new HashMap<>();
    if (text != null && !text.isEmpty()) {
      for (String pair : text.split(separator)) {
        int eq = pair.indexOf('=');
        out.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return out;
  }
}
