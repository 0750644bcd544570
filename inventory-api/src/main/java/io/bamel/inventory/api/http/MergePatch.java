package io.bamel.inventory.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON Merge Patch (RFC 7396), a pure function: a patch object merges member by member, {@code
 * null} removes a member, anything else (arrays included) replaces the target. The inputs are not
 * modified.
 */
public final class MergePatch {

  private MergePatch() {}

  /** The result of applying {@code patch} to {@code target} (which may be null). */
  public static JsonNode apply(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch.deepCopy();
    }
    ObjectNode result =
        target != null && target.isObject()
            ? ((ObjectNode) target).deepCopy()
            : ((ObjectNode) patch).objectNode();
    Iterator<Map.Entry<String, JsonNode>> fields = patch.properties().iterator();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      if (field.getValue().isNull()) {
        result.remove(field.getKey());
      } else {
        result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
      }
    }
    return result;
  }
}
