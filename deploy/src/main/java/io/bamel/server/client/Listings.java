package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Reads whole listings: {@code GET /api/v1/nodes} page after page (following {@code continue}),
 * with the selector sent as {@code labelSelector} and, when the server refuses that parameter (400
 * naming it: a server before label selectors), sent again as {@code labels=k=v,...} if the selector
 * is an equality one.
 */
public final class Listings {

  private Listings() {}

  /** Every node the query selects, as {@code {"items":[...],"revision":R}}. */
  public static JsonNode nodes(ApiClient api, NodeQuery query) {
    try {
      return all(api, ApiClient.API + "/nodes", query.queryString());
    } catch (ClientException e) {
      String legacy = query.legacyLabels();
      if (e.status() == 400 && e.getMessage().contains("labelSelector") && legacy != null) {
        return all(api, ApiClient.API + "/nodes", legacy);
      }
      throw e;
    }
  }

  /** Every pool, as the API lists them. */
  public static JsonNode pools(ApiClient api) {
    return api.get(ApiClient.API + "/pools");
  }

  private static JsonNode all(ApiClient api, String path, String query) {
    ArrayNode items = JsonNodeFactory.instance.arrayNode();
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    String next = null;
    do {
      StringBuilder url = new StringBuilder(path).append('?').append(query);
      if (!query.isEmpty()) {
        url.append('&');
      }
      url.append("limit=500");
      if (next != null) {
        url.append("&continue=").append(URLEncoder.encode(next, StandardCharsets.UTF_8));
      }
      JsonNode page = api.get(url.toString());
      page.path("items").forEach(items::add);
      if (!result.has("revision")) {
        result.set("revision", page.path("revision"));
      }
      next = page.path("continue").isTextual() ? page.path("continue").asText() : null;
    } while (next != null && !next.isEmpty());
    result.set("items", items);
    return result;
  }
}
