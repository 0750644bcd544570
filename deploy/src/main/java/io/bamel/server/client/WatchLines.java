package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines {@code bamel watch} prints for the watch stream's changes: which changes pass the kind
 * and pool filters, and each as a row ({@code EVENT} then the {@link Rows} columns, padded to fixed
 * widths so successive lines stay aligned) or as its JSON. Pure.
 */
final class WatchLines {

  private static final int[] NODE_WIDTHS = {9, 16, 10, 20, 10, 6, 0};
  private static final int[] POOL_WIDTHS = {9, 16, 6, 6, 8, 8, 4, 0};

  private final String kind;
  private final List<String> pools;
  private boolean nodeHeader;
  private boolean poolHeader;

  /**
   * Lines for changes of {@code kind} ({@code node}, {@code pool} or null: both) in {@code pools}.
   */
  WatchLines(String kind, List<String> pools) {
    this.kind = kind;
    this.pools = new ArrayList<>();
    pools.forEach(p -> this.pools.addAll(List.of(p.split(","))));
  }

  /** Whether a change ({@code event: node|pool}) passes the filters. */
  boolean accepts(String name, JsonNode change) {
    if (kind != null && !kind.equals(name)) {
      return false;
    }
    if (pools.isEmpty()) {
      return true;
    }
    String pool =
        name.equals("node")
            ? change.path("node").path("spec").path("pool").asText("")
            : change.path("name").asText("");
    return pools.contains(pool);
  }

  /** The change as its JSON line, or null when filtered out. */
  String json(String name, JsonNode change, String data) {
    return accepts(name, change) ? data : null;
  }

  /** The change as a table row (after a header line the first time), or null when filtered out. */
  String row(String name, JsonNode change, Instant now) {
    if (!accepts(name, change)) {
      return null;
    }
    String type = change.path("type").asText("?").toUpperCase(java.util.Locale.ROOT);
    List<String> cells = new ArrayList<>();
    cells.add(type);
    StringBuilder out = new StringBuilder();
    if (name.equals("node")) {
      cells.addAll(Rows.node(change.path("node"), false, now));
      if (!nodeHeader) {
        nodeHeader = true;
        out.append(line(header(Rows.NODE), NODE_WIDTHS)).append('\n');
      }
      out.append(line(cells, NODE_WIDTHS));
    } else if (name.equals("pool")) {
      cells.addAll(Rows.pool(change.path("pool"), false, now));
      if (!poolHeader) {
        poolHeader = true;
        out.append(line(header(Rows.POOL), POOL_WIDTHS)).append('\n');
      }
      out.append(line(cells, POOL_WIDTHS));
    } else {
      return null;
    }
    return out.toString();
  }

  private static List<String> header(List<String> columns) {
    List<String> h = new ArrayList<>();
    h.add("EVENT");
    h.addAll(columns);
    return h;
  }

  private static String line(List<String> cells, int[] widths) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i) == null || cells.get(i).isEmpty() ? "<none>" : cells.get(i);
      s.append(c);
      if (i < cells.size() - 1) {
        s.append(" ".repeat(Math.max(widths[i] - c.length(), 0) + 3));
      }
    }
    return s.toString().stripTrailing();
  }
}
