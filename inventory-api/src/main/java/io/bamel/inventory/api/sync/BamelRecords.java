package io.bamel.inventory.api.sync;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.ApiJson;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.Texts;
import io.bamel.inventory.sync.SyncInputException;
import io.bamel.inventory.sync.SyncItem;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads a sync body in bamel's own format: {@code {"items":[{"id":...,"spec":{...}}, ...]}}, the
 * shape {@code GET /api/v1/nodes} returns, so a listing can be posted back as it is (its {@code
 * revision}, {@code status}, {@code readings} and paging members are ignored). An item that cannot
 * be read becomes a rejected item; only a body that is not this envelope fails ({@link
 * SyncInputException}, which the API answers with 400).
 */
public final class BamelRecords {

  private static final Set<String> ENVELOPE = Set.of("items", "revision", "continue");
  private static final Set<String> ITEM =
      Set.of("id", "spec", "revision", "status", "statusRevision", "readings");

  private BamelRecords() {}

  /** The items of a body. */
  public static List<SyncItem> read(JsonNode body) {
    if (!body.isObject() || !body.path("items").isArray()) {
      throw new SyncInputException("items", "must be an array of {\"id\":..., \"spec\":{...}}");
    }
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!ENVELOPE.contains(name)) {
        throw new SyncInputException(Texts.quote(name), "unknown field");
      }
    }
    List<SyncItem> items = new ArrayList<>();
    int index = 0;
    for (JsonNode record : body.get("items")) {
      items.add(item(index++, record));
    }
    return items;
  }

  private static SyncItem item(int index, JsonNode record) {
    if (!record.isObject()) {
      return SyncItem.unreadable(index, null, List.of(new FieldError("", "must be an object")));
    }
    List<FieldError> errors = new ArrayList<>();
    for (Iterator<String> it = record.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!ITEM.contains(name)) {
        errors.add(new FieldError(Texts.quote(name), "unknown field"));
      }
    }
    JsonNode idNode = record.get("id");
    String id = idNode != null && idNode.isTextual() ? idNode.asText() : null;
    if (idNode != null && !idNode.isTextual()) {
      errors.add(new FieldError("id", "must be a string"));
    }
    JsonNode specNode = record.get("spec");
    if (specNode == null || !specNode.isObject()) {
      errors.add(new FieldError("spec", "must be an object"));
    }
    if (!errors.isEmpty()) {
      return SyncItem.unreadable(index, id, errors);
    }
    try {
      NodeSpec spec = ApiJson.convert(specNode, NodeSpec.class);
      return SyncItem.replacing(index, id, spec);
    } catch (ApiException e) {
      // Field names are the spec's, as in the planner's validation errors.
      List<FieldError> specErrors = new ArrayList<>(e.problem().errors());
      if (specErrors.isEmpty()) {
        specErrors.add(new FieldError("spec", e.problem().detail()));
      }
      return SyncItem.unreadable(index, id, specErrors);
    }
  }
}
