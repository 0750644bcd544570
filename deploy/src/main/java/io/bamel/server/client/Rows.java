package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The table rows of {@code bamel get}: which columns a node and a pool have, and each cell from the
 * API's JSON ({@code NodeView}, {@code PoolView}). Pure: the time ages are computed against is a
 * parameter.
 *
 * <p>Nodes: {@code NAME POOL STATE POWER READY AGE}; wide adds {@code RACK MGMT INTERFACE WATTS}.
 * POWER is {@code desired/observed} (desired {@code off} when the spec sets none, observed {@code
 * unknown} without a status); STATE is the lifecycle state, with {@code ,maintenance} when the node
 * is in maintenance (as kubectl shows {@code SchedulingDisabled}); READY is the Kubernetes node's
 * readiness; AGE is the time since the node entered its state. Pools: {@code NAME NODES READY
 * PENDING DESIRED MIN MAX}; wide adds {@code UTILIZATION LAST-SCALE}.
 */
public final class Rows {

  /** The node columns. */
  public static final List<String> NODE = List.of("NAME", "POOL", "STATE", "POWER", "READY", "AGE");

  /** The node columns of {@code -o wide}. */
  public static final List<String> NODE_WIDE =
      List.of(
          "NAME", "POOL", "STATE", "POWER", "READY", "AGE", "RACK", "MGMT", "INTERFACE", "WATTS");

  /** The pool columns. */
  public static final List<String> POOL =
      List.of("NAME", "NODES", "READY", "PENDING", "DESIRED", "MIN", "MAX");

  /** The pool columns of {@code -o wide}. */
  public static final List<String> POOL_WIDE =
      List.of(
          "NAME",
          "NODES",
          "READY",
          "PENDING",
          "DESIRED",
          "MIN",
          "MAX",
          "UTILIZATION",
          "LAST-SCALE");

  private Rows() {}

  /** A node's cells for {@link #NODE} or, when {@code wide}, {@link #NODE_WIDE}. */
  public static List<String> node(JsonNode view, boolean wide, Instant now) {
    JsonNode spec = view.path("spec");
    JsonNode status = view.path("status");
    String state = text(status.path("state"), "unknown");
    if (spec.path("maintenance").asBoolean(false)) {
      state += ",maintenance";
    }
    String power =
        text(spec.path("powerState"), "off") + "/" + text(status.path("powerState"), "unknown");
    JsonNode ready = status.path("nodeReady");
    List<String> cells = new ArrayList<>();
    cells.add(view.path("id").asText());
    cells.add(text(spec.path("pool"), null));
    cells.add(state);
    cells.add(power);
    cells.add(ready.isBoolean() ? (ready.asBoolean() ? "True" : "False") : null);
    cells.add(
        status.has("stateSince")
            ? Ages.since(Ages.parse(status.path("stateSince").asText()), now)
            : null);
    if (wide) {
      cells.add(text(spec.path("rack"), null));
      cells.add(text(spec.path("mgmtAddress"), null));
      cells.add(text(spec.path("powerInterface"), null));
      JsonNode watts = view.path("readings").path("powerWatts");
      cells.add(watts.isNumber() ? number(watts.asDouble()) : null);
    }
    return cells;
  }

  /** A pool's cells for {@link #POOL} or, when {@code wide}, {@link #POOL_WIDE}. */
  public static List<String> pool(JsonNode view, boolean wide, Instant now) {
    JsonNode status = view.path("status");
    JsonNode config = view.path("config");
    List<String> cells = new ArrayList<>();
    cells.add(view.path("name").asText());
    int members =
        view.has("memberCount") ? view.path("memberCount").asInt() : view.path("members").size();
    cells.add(Integer.toString(members));
    cells.add(text(status.path("readyNodes"), null));
    cells.add(text(status.path("pendingNodes"), null));
    cells.add(text(status.path("desiredNodes"), null));
    cells.add(text(config.path("minNodes"), null));
    cells.add(text(config.path("maxNodes"), null));
    if (wide) {
      List<String> parts = new ArrayList<>();
      for (Map.Entry<String, JsonNode> e : status.path("utilization").properties()) {
        parts.add(e.getKey() + "=" + Math.round(e.getValue().asDouble() * 100) + "%");
      }
      cells.add(String.join(",", parts));
      cells.add(
          status.has("lastScaleTime")
              ? Ages.since(Ages.parse(status.path("lastScaleTime").asText()), now)
              : null);
    }
    return cells;
  }

  /** A number without a needless {@code .0}; one decimal otherwise. */
  static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return String.format(Locale.ROOT, "%.1f", value);
  }

  private static String text(JsonNode value, String absent) {
    return value.isMissingNode() || value.isNull() ? absent : value.asText();
  }
}
