package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.bamel.inventory.store.Codec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Validates real API responses against the OpenAPI document's schemas (JSON Schema 2020-12 in the
 * OpenAPI 3.1 dialect, networknt's validator): the response object for the answer's status (or its
 * {@code 4XX} / {@code default}) and content type. {@link #unsaidObjects()} lists the object
 * schemas that do not say whether they are closed, so that {@code additionalProperties: false} is
 * what the validation enforces.
 */
final class ResponseValidator {

  private static final String DOC = "urn:bamel:openapi";

  private static final String COMPONENTS = "#/components/schemas/";

  private static volatile ResponseValidator served;

  private final Map<String, Set<String>> seen = new TreeMap<>();

  private final JsonNode doc;
  private final SchemaRegistry registry;
  private int checked;

  ResponseValidator(String document) throws IOException {
    this.doc = Codec.mapper().readTree(document);
    this.registry =
        SchemaRegistry.withDefaultDialect(
            Dialects.getOpenApi31(), b -> b.schemas(Map.of(DOC, document)));
  }

  /**
   * The validator of the document the API serves ({@link DocsRoutes#document()}, the bytes of
   * {@code GET /openapi.json}), built once per test JVM.
   */
  static ResponseValidator served() {
    ResponseValidator v = served;
    if (v == null) {
      synchronized (ResponseValidator.class) {
        if (served == null) {
          try {
            served =
                new ResponseValidator(new String(DocsRoutes.document(), StandardCharsets.UTF_8));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
        v = served;
      }
    }
    return v;
  }

  /**
   * The document's path template a request path (with or without a query) falls under: a literal
   * path first, else the template with the fewest parameters whose segments match.
   */
  Optional<String> template(String path) {
    String bare = path.split("\\?", 2)[0];
    if (doc.path("paths").has(bare)) {
      return Optional.of(bare);
    }
    String best = null;
    long bestParams = Long.MAX_VALUE;
    for (Map.Entry<String, JsonNode> e : doc.path("paths").properties()) {
      String t = e.getKey();
      String regex = Pattern.quote(t).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q");
      long params = t.chars().filter(c -> c == '{').count();
      if (bare.matches(regex) && params < bestParams) {
        best = t;
        bestParams = params;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Validates any response a test received: against its operation when the document describes the
   * path and method; a problem answer to anything else (an unknown path, a method the path does not
   * have) against {@code Problem}. Other answers of undescribed paths (the console's static files)
   * are not the API's and are left alone.
   */
  void checkAny(String method, String path, ApiFixture.Response r) {
    Optional<String> template = template(path);
    String lower = method.toLowerCase(Locale.ROOT);
    if (template.isPresent() && doc.path("paths").path(template.get()).has(lower)) {
      check(method, template.get(), r);
    } else if (isJson(mediaType(r)) && mediaType(r).equals("application/problem+json")) {
      assertValid("#/components/schemas/Problem", decoded(r), method + " " + path);
    }
  }

  /** The body as text, gunzipped when the server sent it gzip-encoded. */
  private static String decoded(ApiFixture.Response r) {
    if (!"gzip".equalsIgnoreCase(r.header("Content-Encoding"))) {
      return r.body();
    }
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(r.raw().body()))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("a gzip body that does not decode", e);
    }
  }

  private static String mediaType(ApiFixture.Response r) {
    return r.contentType() == null ? "" : r.contentType().split(";")[0].trim();
  }

  private static boolean isJson(String mediaType) {
    return mediaType.equals("application/json") || mediaType.endsWith("+json");
  }

  /** How many responses were validated. */
  int checked() {
    return checked;
  }

  /** Object schemas under components and paths that do not say whether they are closed. */
  List<String> unsaidObjects() {
    List<String> out = new ArrayList<>(openObjects(doc.path("components"), "#/components"));
    out.addAll(openObjects(doc.path("paths"), "#/paths"));
    return out;
  }

  /** Validates {@code r} against the document's response for its status and content type. */
  void check(String method, String template, ApiFixture.Response r) {
    String op = "/paths/" + escape(template) + "/" + method.toLowerCase(Locale.ROOT);
    JsonNode responses = doc.at(op + "/responses");
    assertThat(responses.isObject())
        .as(
            "%s %s is described: %s %s",
            method, template, op, doc.path("paths").path(template).toString().length())
        .isTrue();
    String code = String.valueOf(r.status());
    String key =
        responses.has(code)
            ? code
            : responses.has(code.charAt(0) + "XX") ? code.charAt(0) + "XX" : "default";
    assertThat(responses.has(key))
        .as("%s %s describes status %s (%s)", method, template, code, r.body())
        .isTrue();
    String type = mediaType(r);
    JsonNode content = responses.path(key).path("content");
    if (r.raw().body().length == 0) {
      assertThat(content.isMissingNode() || content.isEmpty()).isTrue();
      return;
    }
    assertThat(content.has(type))
        .as("%s %s %s describes content %s", method, template, code, type)
        .isTrue();
    if (!isJson(type) || method.equals("HEAD")) {
      return;
    }
    JsonNode schema = content.path(type).path("schema");
    String pointer =
        schema.has("$ref")
            ? schema.get("$ref").asText()
            : "#"
                + (op + "/responses/" + key + "/content/" + escape(type) + "/schema")
                    .replace("{", "%7B")
                    .replace("}", "%7D");
    String body = decoded(r);
    assertValid(pointer, body, method + " " + template + " " + code);
    record(ApiFields.root(method, template, key, schema), schema, body);
  }

  void assertValid(String pointer, String json, String what) {
    assertThat(errors(pointer, json)).as("%s: %s", what, json).isEmpty();
    checked++;
    if (pointer.startsWith(COMPONENTS)) {
      String name = pointer.substring(COMPONENTS.length());
      record(name, ApiFields.ref(name), json);
    }
  }

  /**
   * The wire names of every valid response so far ({@link ApiFields} lines, each under the schema
   * it belongs to), by the response's root schema: what the server really sent, to compare with the
   * golden file.
   */
  synchronized Map<String, Set<String>> seenFields() {
    Map<String, Set<String>> copy = new TreeMap<>();
    seen.forEach((k, v) -> copy.put(k, new TreeSet<>(v)));
    return copy;
  }

  private synchronized void record(String root, JsonNode schema, String json) {
    try {
      Set<String> lines = new TreeSet<>();
      ApiFields.fromResponse(doc, root, schema, Codec.mapper().readTree(json), lines);
      seen.computeIfAbsent(root, k -> new TreeSet<>()).addAll(lines);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + json, e);
    }
  }

  List<String> errors(String pointer, String json) {
    Schema schema = registry.getSchema(SchemaLocation.of(DOC + pointer));
    JsonNode value;
    try {
      value = Codec.mapper().readTree(json);
    } catch (IOException e) {
      return List.of("not JSON: " + e.getMessage());
    }
    List<String> out = new ArrayList<>();
    for (Error e : schema.validate(value)) {
      out.add(e.toString());
    }
    return out;
  }

  private static String escape(String segment) {
    return segment.replace("~", "~0").replace("/", "~1");
  }

  /**
   * Every schema under {@code node} with {@code properties} but neither {@code
   * additionalProperties} nor {@code unevaluatedProperties}: an object whose openness is unsaid.
   */
  private static List<String> openObjects(JsonNode node, String at) {
    List<String> out = new ArrayList<>();
    if (node.isObject()) {
      if (node.has("properties")
          && node.get("properties").isObject()
          && !node.has("additionalProperties")
          && !node.has("unevaluatedProperties")) {
        out.add(at);
      }
      if (node.path("type").asText().equals("object")
          && !node.has("properties")
          && !node.has("additionalProperties")
          && !node.has("$ref")) {
        out.add(at + " (an untyped object)");
      }
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (!e.getKey().equals("example") && !e.getKey().equals("examples")) {
          out.addAll(openObjects(e.getValue(), at + "/" + e.getKey()));
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        out.addAll(openObjects(node.get(i), at + "/" + i));
      }
    }
    return out;
  }
}
