package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text of {@code bamel describe}, in kubectl-describe style: top-level facts as aligned {@code
 * Key: value} lines, then the sections (Spec, Status, Readings; Config and Members for a pool) with
 * the API's field names indented two spaces per level, times with their age, and the last events as
 * a table. Field names are the API's, so what is shown is what a PATCH would name. Pure.
 */
public final class Describe {

  /** How many of the newest events a node's description shows. */
  public static final int EVENTS = 10;

  private Describe() {}

  /** A node ({@code NodeView}) and its events ({@code {"items":[...]}}, oldest first). */
  public static String node(JsonNode view, JsonNode events, Instant now) {
    StringBuilder out = new StringBuilder();
    JsonNode spec = view.path("spec");
    JsonNode status = view.path("status");
    List<Map.Entry<String, String>> top = new ArrayList<>();
    top.add(Map.entry("Name", view.path("id").asText()));
    top.add(Map.entry("Pool", orNone(spec.path("pool"))));
    top.add(Map.entry("State", orNone(status.path("state"))));
    top.add(
        Map.entry(
            "Power",
            "desired "
                + (spec.path("powerState").isTextual() ? spec.path("powerState").asText() : "off")
                + ", observed "
                + (status.path("powerState").isTextual()
                    ? status.path("powerState").asText()
                    : "unknown")));
    top.add(Map.entry("Maintenance", Boolean.toString(spec.path("maintenance").asBoolean(false))));
    top.add(Map.entry("Revision", view.path("revision").asText()));
    aligned(out, top, "");
    section(out, "Spec", spec, now);
    section(out, "Status", status, now);
    section(out, "Readings", view.path("readings"), now);
    out.append("Events:");
    JsonNode items = events == null ? null : events.path("items");
    if (items == null || items.isEmpty()) {
      out.append("  <none>\n");
      return out.toString();
    }
    out.append('\n');
    Table table = new Table(List.of("AGE", "REASON", "CHANGE", "BY", "MESSAGE"));
    int from = Math.max(0, items.size() - EVENTS);
    for (int i = from; i < items.size(); i++) {
      JsonNode e = items.get(i);
      table.add(
          List.of(
              Ages.since(Ages.parse(e.path("time").asText(null)), now),
              e.path("reason").asText(""),
              change(e),
              e.path("principal").asText(""),
              e.path("message").asText("")));
    }
    for (String line : table.render().split("\n")) {
      out.append("  ").append(line).append('\n');
    }
    return out.toString();
  }

  /** A pool ({@code PoolView} with its members). */
  public static String pool(JsonNode view, Instant now) {
    StringBuilder out = new StringBuilder();
    List<Map.Entry<String, String>> top = new ArrayList<>();
    top.add(Map.entry("Name", view.path("name").asText()));
    int count =
        view.has("memberCount") ? view.path("memberCount").asInt() : view.path("members").size();
    top.add(Map.entry("Nodes", Integer.toString(count)));
    top.add(Map.entry("Revision", view.path("revision").asText()));
    aligned(out, top, "");
    section(out, "Config", view.path("config"), now);
    section(out, "Status", view.path("status"), now);
    out.append("Members:");
    JsonNode members = view.path("members");
    if (members.isEmpty()) {
      out.append("  <none>\n");
    } else {
      out.append('\n');
      for (JsonNode m : members) {
        out.append("  ").append(m.asText()).append('\n');
      }
    }
    return out.toString();
  }

  private static String change(JsonNode e) {
    if (e.hasNonNull("from") || e.hasNonNull("to")) {
      return e.path("from").asText("?") + " -> " + e.path("to").asText("?");
    }
    if (e.hasNonNull("action")) {
      return e.path("action").asText()
          + (e.hasNonNull("result") ? " " + e.path("result").asText() : "");
    }
    return "";
  }

  /** Appends {@code title:} and {@code value}'s fields, indented. */
  static void section(StringBuilder out, String title, JsonNode value, Instant now) {
    out.append(title).append(':');
    if (value.isMissingNode() || value.isNull() || value.isObject() && value.isEmpty()) {
      out.append("  <none>\n");
      return;
    }
    out.append('\n');
    object(out, value, "  ", now);
  }

  private static void object(StringBuilder out, JsonNode object, String indent, Instant now) {
    List<Map.Entry<String, String>> scalars = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : object.properties()) {
      JsonNode v = e.getValue();
      if (v.isNull()) {
        continue;
      }
      if (v.isObject() || v.isArray() && !allScalars(v)) {
        aligned(out, scalars, indent);
        scalars.clear();
        out.append(indent).append(e.getKey()).append(':');
        if (v.isEmpty()) {
          out.append("  <none>\n");
        } else if (v.isObject()) {
          out.append('\n');
          object(out, v, indent + "  ", now);
        } else {
          out.append('\n');
          for (JsonNode item : v) {
            if (item.isObject()) {
              out.append(indent).append("  -\n");
              object(out, item, indent + "    ", now);
            } else {
              out.append(indent).append("  - ").append(scalar(item, now)).append('\n');
            }
          }
        }
      } else {
        scalars.add(Map.entry(e.getKey(), v.isArray() ? joined(v) : scalar(v, now)));
      }
    }
    aligned(out, scalars, indent);
  }

  private static boolean allScalars(JsonNode array) {
    for (JsonNode item : array) {
      if (item.isContainerNode()) {
        return false;
      }
    }
    return true;
  }

  private static String joined(JsonNode array) {
    List<String> parts = new ArrayList<>();
    array.forEach(item -> parts.add(item.asText()));
    return parts.isEmpty() ? "<none>" : String.join(", ", parts);
  }

  private static String scalar(JsonNode v, Instant now) {
    String text = v.asText();
    if (v.isTextual() && text.length() >= 20 && Character.isDigit(text.charAt(0))) {
      Instant time = Ages.parse(text);
      if (time != null) {
        return text + " (" + Ages.since(time, now) + " ago)";
      }
    }
    return text;
  }

  private static void aligned(StringBuilder out, List<Map.Entry<String, String>> rows, String in) {
    int width = 0;
    for (Map.Entry<String, String> r : rows) {
      width = Math.max(width, r.getKey().length());
    }
    for (Map.Entry<String, String> r : rows) {
      out.append(in)
          .append(r.getKey())
          .append(':')
          .append(" ".repeat(width - r.getKey().length() + 2))
          .append(r.getValue())
          .append('\n');
    }
  }

  private static String orNone(JsonNode value) {
    return value.isMissingNode() || value.isNull() ? "<none>" : value.asText();
  }
}
