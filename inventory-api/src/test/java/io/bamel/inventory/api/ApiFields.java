package io.bamel.inventory.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The API's wire names as lines of text, one a line: {@code Schema field.path} for every field of
 * every schema a response uses ({@code Schema} is a component of the document, or {@code METHOD
 * path status} for a response's inline schema; a field whose value is another component ends the
 * path, that component's fields being listed under its own name; {@code []} marks an array's items,
 * {@code *} a map's keys, which are data, not names), and {@code METHOD path ?name} for every query
 * parameter. The same lines come from the OpenAPI document ({@link #fromDocument}) and from real
 * responses ({@link #fromResponse}), and are compared with {@code api-fields.golden}.
 */
final class ApiFields {

  private ApiFields() {}

  /** The class-path resource of today's wire names. */
  static final String GOLDEN = "/api-fields.golden";

  /** The lines of {@link #GOLDEN}, without comments ({@code #}) and blank lines. */
  static Set<String> golden() {
    try (java.io.InputStream in = ApiFields.class.getResourceAsStream(GOLDEN)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + GOLDEN);
      }
      Set<String> out = new TreeSet<>();
      for (String line :
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
        String t = line.strip();
        if (!t.isEmpty() && !t.startsWith("#")) {
          out.add(t);
        }
      }
      return out;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The lines of {@code lines} for response root {@code root}. */
  static Set<String> ofRoot(Set<String> lines, String root) {
    Set<String> out = new TreeSet<>();
    for (String line : lines) {
      if (line.startsWith(root + " ") && !line.substring(root.length() + 1).contains(" ")) {
        out.add(line);
      }
    }
    return out;
  }

  /** The lines the document describes: every response root's field paths, every parameter. */
  static Set<String> fromDocument(JsonNode doc) {
    Set<String> out = new TreeSet<>();
    Set<String> walked = new java.util.HashSet<>();
    for (Map.Entry<String, JsonNode> path : doc.path("paths").properties()) {
      List<JsonNode> shared = list(path.getValue().path("parameters"));
      for (Map.Entry<String, JsonNode> op : path.getValue().properties()) {
        if (op.getKey().equals("parameters")) {
          continue;
        }
        String method = op.getKey().toUpperCase(Locale.ROOT);
        List<JsonNode> parameters = new ArrayList<>(shared);
        parameters.addAll(list(op.getValue().path("parameters")));
        for (JsonNode p : parameters) {
          JsonNode parameter = resolve(doc, p);
          if (parameter.path("in").asText().equals("query")) {
            out.add(method + " " + path.getKey() + " ?" + parameter.path("name").asText());
          }
        }
        for (Map.Entry<String, JsonNode> response : op.getValue().path("responses").properties()) {
          for (Map.Entry<String, JsonNode> content :
              resolve(doc, response.getValue()).path("content").properties()) {
            if (isJson(content.getKey())) {
              JsonNode schema = content.getValue().path("schema");
              String root = root(method, path.getKey(), response.getKey(), schema);
              walkSchema(doc, schema, root, "", out, walked);
            }
          }
        }
      }
    }
    // The watch stream's events: text/event-stream whose data lines are WatchEvents.
    walkSchema(doc, ref("WatchEvent"), "WatchEvent", "", out, walked);
    return out;
  }

  /**
   * Adds the lines of one real response body {@code body} whose document schema is {@code schema}
   * (the schema only tells a map, whose keys are data, from an object, whose keys are names).
   */
  static void fromResponse(
      JsonNode doc, String root, JsonNode schema, JsonNode body, Set<String> out) {
    walkValue(doc, schema, body, root, "", out, 0);
  }

  /** The root name of a response schema: its component's name, or the operation and status. */
  static String root(String method, String path, String status, JsonNode schema) {
    String ref = schema.path("$ref").asText("");
    return ref.startsWith("#/components/schemas/")
        ? ref.substring("#/components/schemas/".length())
        : method + " " + path + " " + status;
  }

  static JsonNode ref(String component) {
    return JsonNodeFactory.instance.objectNode().put("$ref", "#/components/schemas/" + component);
  }

  static boolean isJson(String mediaType) {
    return mediaType.equals("application/json") || mediaType.endsWith("+json");
  }

  private static void walkSchema(
      JsonNode doc,
      JsonNode schema,
      String root,
      String path,
      Set<String> out,
      Set<String> walked) {
    String ref = component(schema);
    if (ref != null && !(path.isEmpty() && ref.equals(root))) {
      // Another component: its names are listed once, under its own name.
      if (walked.add(ref)) {
        walkSchema(doc, ref(ref), ref, "", out, walked);
      }
      return;
    }
    JsonNode s = resolve(doc, schema);
    for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
      for (JsonNode b : s.path(combinator)) {
        walkSchema(doc, b, root, path, out, walked);
      }
    }
    for (Map.Entry<String, JsonNode> p : s.path("properties").properties()) {
      String at = join(path, p.getKey());
      out.add(root + " " + at);
      walkSchema(doc, p.getValue(), root, at, out, walked);
    }
    if (s.path("additionalProperties").isObject()) {
      String at = join(path, "*");
      out.add(root + " " + at);
      walkSchema(doc, s.get("additionalProperties"), root, at, out, walked);
    }
    if (s.has("items")) {
      walkSchema(doc, s.get("items"), root, path + "[]", out, walked);
    }
  }

  private static void walkValue(
      JsonNode doc,
      JsonNode schema,
      JsonNode value,
      String root,
      String path,
      Set<String> out,
      int depth) {
    if (depth > 30) {
      throw new IllegalStateException("value nested too deeply at " + root + " " + path);
    }
    List<JsonNode> alternatives = alternatives(doc, schema, root, path);
    List<String> components = new ArrayList<>();
    List<JsonNode> inline = new ArrayList<>();
    for (JsonNode a : alternatives) {
      String c = component(a);
      if (c != null) {
        components.add(c);
      } else {
        inline.add(a);
      }
    }
    if (!components.isEmpty() && (value.isObject() || value.isArray())) {
      // The value is another component's: its names go under that component.
      String chosen = components.get(0);
      for (String c : components) {
        if (value.isObject() && names(doc, ref(c)).containsAll(fieldNames(value))) {
          chosen = c;
          break;
        }
      }
      walkValue(doc, ref(chosen), value, chosen, "", out, depth + 1);
      return;
    }
    if (value.isObject()) {
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        ArrayNode named = JsonNodeFactory.instance.arrayNode();
        ArrayNode maps = JsonNodeFactory.instance.arrayNode();
        for (JsonNode b : inline) {
          if (b.path("properties").has(field.getKey())) {
            named.add(b.path("properties").get(field.getKey()));
          } else if (b.path("additionalProperties").isObject()) {
            maps.add(b.get("additionalProperties"));
          }
        }
        boolean map = named.isEmpty() && !maps.isEmpty();
        String at = join(path, map ? "*" : field.getKey());
        out.add(root + " " + at);
        ObjectNode next = JsonNodeFactory.instance.objectNode();
        next.set("anyOf", map ? maps : named);
        walkValue(doc, next, field.getValue(), root, at, out, depth + 1);
      }
    } else if (value.isArray()) {
      ArrayNode items = JsonNodeFactory.instance.arrayNode();
      for (JsonNode b : inline) {
        if (b.has("items")) {
          items.add(b.get("items"));
        }
      }
      ObjectNode next = JsonNodeFactory.instance.objectNode();
      next.set("anyOf", items);
      for (JsonNode element : value) {
        walkValue(doc, next, element, root, path + "[]", out, depth + 1);
      }
    }
  }

  /**
   * The schema's alternatives: another component's reference as it is, else the schema resolved and
   * the alternatives of each of its allOf/anyOf/oneOf branches.
   */
  private static List<JsonNode> alternatives(
      JsonNode doc, JsonNode schema, String root, String path) {
    List<JsonNode> out = new ArrayList<>();
    if (schema == null || schema.isMissingNode()) {
      return out;
    }
    String c = component(schema);
    if (c != null && !(path.isEmpty() && c.equals(root))) {
      out.add(schema);
      return out;
    }
    JsonNode s = resolve(doc, schema);
    out.add(s);
    for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
      for (JsonNode b : s.path(combinator)) {
        out.addAll(alternatives(doc, b, root, path));
      }
    }
    return out;
  }

  /** The property names a component's schema (with its combinators' branches) has. */
  private static Set<String> names(JsonNode doc, JsonNode schema) {
    Set<String> out = new TreeSet<>();
    for (JsonNode b : branches(doc, schema)) {
      b.path("properties").fieldNames().forEachRemaining(out::add);
    }
    return out;
  }

  private static Set<String> fieldNames(JsonNode value) {
    Set<String> out = new TreeSet<>();
    value.fieldNames().forEachRemaining(out::add);
    return out;
  }

  /** The component a {@code $ref} schema names, or null. */
  private static String component(JsonNode schema) {
    String ref = schema.path("$ref").asText("");
    return ref.startsWith("#/components/schemas/")
        ? ref.substring("#/components/schemas/".length())
        : null;
  }

  /** The schema, resolved, and every allOf/anyOf/oneOf branch of it, resolved, recursively. */
  private static List<JsonNode> branches(JsonNode doc, JsonNode schema) {
    List<JsonNode> out = new ArrayList<>();
    if (schema == null || schema.isMissingNode()) {
      return out;
    }
    JsonNode s = resolve(doc, schema);
    out.add(s);
    for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
      for (JsonNode b : s.path(combinator)) {
        out.addAll(branches(doc, b));
      }
    }
    return out;
  }

  private static JsonNode resolve(JsonNode doc, JsonNode node) {
    JsonNode n = node;
    for (int i = 0; i < 10 && n.has("$ref"); i++) {
      String ref = n.get("$ref").asText();
      n = ref.startsWith("#") ? doc.at(ref.substring(1)) : MissingNode.getInstance();
    }
    return n;
  }

  private static List<JsonNode> list(JsonNode array) {
    List<JsonNode> out = new ArrayList<>();
    array.forEach(out::add);
    return out;
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
