package io.bamel.server.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The query string of {@code GET /api/v1/nodes} for the flags of {@code bamel get nodes}: {@code
 * -l} as {@code labelSelector} (Kubernetes syntax, passed through), each {@code --pool} and {@code
 * --state} value (repeated or comma-separated on the command line) as its own repeated parameter,
 * and the page {@code limit}. {@link #legacyLabels()} is the same selector as the older {@code
 * labels=k=v,...} parameter, for a server that does not know {@code labelSelector} yet: only an
 * equality selector has one. Pure.
 *
 * @param selector the label selector, or null
 * @param pools pool names (any order, no duplicates kept)
 * @param states lifecycle states
 */
public record NodeQuery(String selector, List<String> pools, List<String> states) {

  private static final Pattern EQUALITY =
      Pattern.compile("\\s*([A-Za-z0-9./_-]+)\\s*==?\\s*([A-Za-z0-9._-]*)\\s*");

  /** A query from flag values; each list entry may itself be comma-separated. */
  public static NodeQuery of(String selector, List<String> pools, List<String> states) {
    String s = selector == null || selector.isBlank() ? null : selector.strip();
    return new NodeQuery(s, split(pools), split(states));
  }

  /** The query string (without {@code ?}) using {@code labelSelector}; empty when no filter. */
  public String queryString() {
    return build(selector == null ? null : Map.entry("labelSelector", selector));
  }

  /**
   * The query string with the selector as {@code labels=k=v,...}, or null when the selector is not
   * a plain equality selector (then only {@code labelSelector} can express it).
   */
  public String legacyLabels() {
    if (selector == null) {
      return null;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    for (String term : selector.split(",", -1)) {
      var m = EQUALITY.matcher(term);
      if (!m.matches() || term.contains("!=")) {
        return null;
      }
      labels.put(m.group(1), m.group(2));
    }
    List<String> pairs = new ArrayList<>();
    labels.forEach((k, v) -> pairs.add(k + "=" + v));
    return build(Map.entry("labels", String.join(",", pairs)));
  }

  private String build(Map.Entry<String, String> labels) {
    List<String> params = new ArrayList<>();
    if (labels != null) {
      params.add(labels.getKey() + "=" + encode(labels.getValue()));
    }
    for (String p : pools) {
      params.add("pool=" + encode(p));
    }
    for (String s : states) {
      params.add("state=" + encode(s));
    }
    return String.join("&", params);
  }

  private static List<String> split(List<String> values) {
    List<String> out = new ArrayList<>();
    if (values == null) {
      return out;
    }
    for (String v : values) {
      for (String part : v.split(",")) {
        String p = part.strip();
        if (!p.isEmpty() && !out.contains(p)) {
          out.add(p);
        }
      }
    }
    return out;
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
