package io.bamel.inventory.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.store.Codec;
import io.bamel.power.spi.PowerInterfaceType;
import io.bamel.power.spi.PowerInterfaceTypes;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * The API's description: {@code /openapi.json} (OpenAPI 3.1, a resource next to this class, with
 * each registered power interface's part added: its name in {@code NodeSpec.powerInterface}'s enum
 * and its settings object's schema, {@link PowerInterfaceType#settingsSchema}, as {@code
 * NodeSpec}'s property of its settings field) and {@code /docs}, a plain HTML page listing every
 * operation, rendered from the same document (no scripts, nothing loaded from elsewhere).
 */
final class DocsRoutes {

  static final String RESOURCE = "openapi.json";

  private final byte[] document;
  private final byte[] page;

  DocsRoutes() {
    try (InputStream in = DocsRoutes.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      this.document = withPowerInterfaces(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.page = render(document).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The OpenAPI document's bytes. */
  static byte[] document() {
    return new DocsRoutes().document;
  }

  /**
   * {@code resource} with the registered power interfaces' names and settings schemas in {@code
   * NodeSpec}: the settings properties right after {@code bmcTls}, in registration order. The
   * document names no interface itself, so a new interface's schema is written once, beside it.
   */
  static byte[] withPowerInterfaces(byte[] resource) throws IOException {
    JsonNode doc = Codec.mapper().readTree(resource);
    JsonNode spec = doc.path("components").path("schemas").path("NodeSpec");
    if (!(spec.path("properties") instanceof ObjectNode properties)) {
      throw new IllegalStateException(RESOURCE + " has no NodeSpec properties");
    }
    if (properties.get("powerInterface") instanceof ObjectNode powerInterface) {
      ArrayNode names = powerInterface.putArray("enum");
      PowerInterfaceTypes.names().forEach(names::add);
    }
    ObjectNode settings = Codec.mapper().createObjectNode();
    for (PowerInterfaceType type : PowerInterfaceTypes.all()) {
      JsonNode schema = type.settingsField() == null ? null : type.settingsSchema();
      if (schema != null) {
        settings.set(type.settingsField(), schema.deepCopy());
      }
    }
    ObjectNode ordered = Codec.mapper().createObjectNode();
    for (Map.Entry<String, JsonNode> p : properties.properties()) {
      if (!settings.has(p.getKey())) {
        ordered.set(p.getKey(), p.getValue());
      }
      if (p.getKey().equals("bmcTls")) {
        ordered.setAll(settings);
      }
    }
    if (!properties.has("bmcTls")) {
      ordered.setAll(settings);
    }
    properties.removeAll();
    properties.setAll(ordered);
    return Codec.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(doc);
  }

  void openapi(Context ctx) {
    ctx.status(200).contentType("application/json").result(document);
  }

  void page(Context ctx) {
    ctx.status(200).contentType("text/html; charset=utf-8").result(page);
  }

  static String render(byte[] document) {
    JsonNode doc;
    try {
      doc = Codec.mapper().readTree(document);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder html = new StringBuilder();
    html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>")
        .append(escape(doc.path("info").path("title").asText()))
        .append("</title><style>body{font-family:sans-serif;max-width:60em;margin:2em auto}")
        .append("code{background:#eee;padding:0 .2em}td{padding:.2em .6em;vertical-align:top}")
        .append("</style></head><body><h1>")
        .append(escape(doc.path("info").path("title").asText()))
        .append(" ")
        .append(escape(doc.path("info").path("version").asText()))
        .append("</h1><p>")
        .append(escape(doc.path("info").path("description").asText()))
        .append("</p><p>Machine-readable: <a href=\"/openapi.json\">/openapi.json</a>")
        .append(" (OpenAPI ")
        .append(escape(doc.path("openapi").asText()))
        .append(").</p><table>");
    for (Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").properties().iterator();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().properties().iterator();
          ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        if (!op.getValue().isObject() || !op.getValue().has("responses")) {
          continue;
        }
        html.append("<tr><td><b>")
            .append(escape(op.getKey().toUpperCase(java.util.Locale.ROOT)))
            .append("</b></td><td><code>")
            .append(escape(path.getKey()))
            .append("</code></td><td>")
            .append(escape(op.getValue().path("summary").asText()))
            .append("<br><small>")
            .append(escape(op.getValue().path("description").asText()))
            .append("</small></td></tr>");
      }
    }
    return html.append("</table></body></html>").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
