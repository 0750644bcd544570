package io.bamel.inventory.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.power.spi.PowerInterfaceTypes;
import io.bamel.power.spi.SettingsJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The power interfaces' settings among a spec's extensions, as JSON: the value of each registered
 * settings field ({@link PowerInterfaceTypes#settingsFields()}) becomes a {@link JsonNode} with its
 * null members dropped (null means absent everywhere in bamel's JSON), and an unset or null one is
 * removed. Nothing else is looked at: the settings stay opaque to the model.
 */
final class PowerSettings {

  private PowerSettings() {}

  /** {@code extensions} with every power interface's settings as JSON (the others unchanged). */
  static Map<String, Object> asJson(Map<String, Object> extensions) {
    if (extensions == null || extensions.isEmpty()) {
      return extensions;
    }
    Map<String, Object> out = null;
    for (Map.Entry<String, Object> e : extensions.entrySet()) {
      if (PowerInterfaceTypes.bySettingsField(e.getKey()).isEmpty()
          || e.getValue() instanceof JsonNode json && !json.isNull() && !hasNull(json)) {
        continue;
      }
      if (out == null) {
        out = new LinkedHashMap<>(extensions);
      }
      JsonNode json = SettingsJson.toJson(e.getValue());
      if (json == null || json.isNull()) {
        out.remove(e.getKey());
      } else {
        out.put(e.getKey(), withoutNulls(json.deepCopy()));
      }
    }
    return out == null ? extensions : out;
  }

  /**
   * {@code extensions} with the settings field {@code field} set to {@code value} as JSON, or
   * removed when {@code value} is {@code null}.
   */
  static Map<String, Object> with(Map<String, Object> extensions, String field, Object value) {
    Map<String, Object> changed = new LinkedHashMap<>(extensions == null ? Map.of() : extensions);
    if (value == null) {
      changed.remove(field);
    } else {
      changed.put(field, SettingsJson.toJson(value));
    }
    return changed;
  }

  /**
   * The fields of {@code unknown} that are no power interface's settings, then the settings fields
   * of {@code extensions}: a spec's unknown fields replaced, its settings kept.
   */
  static Map<String, Object> keepingSettings(
      Map<String, Object> extensions, Map<String, Object> unknown) {
    Map<String, Object> merged = new LinkedHashMap<>();
    if (unknown != null) {
      unknown.forEach(
          (field, value) -> {
            if (!isSettingsField(field)) {
              merged.put(field, value);
            }
          });
    }
    if (extensions != null) {
      extensions.forEach(
          (field, value) -> {
            if (isSettingsField(field)) {
              merged.put(field, value);
            }
          });
    }
    return merged;
  }

  private static boolean isSettingsField(String field) {
    return PowerInterfaceTypes.bySettingsField(field).isPresent();
  }

  /** Whether an object member anywhere in {@code json} is null. */
  private static boolean hasNull(JsonNode json) {
    for (JsonNode child : json) {
      if (child.isNull() && json.isObject() || hasNull(child)) {
        return true;
      }
    }
    return false;
  }

  /** {@code json} (a copy of the caller's) with every null object member removed. */
  private static JsonNode withoutNulls(JsonNode json) {
    if (json instanceof ObjectNode object) {
      List<String> nulls = new ArrayList<>();
      for (Map.Entry<String, JsonNode> member : object.properties()) {
        if (member.getValue().isNull()) {
          nulls.add(member.getKey());
        } else {
          withoutNulls(member.getValue());
        }
      }
      object.remove(nulls);
    } else if (json.isArray()) {
      json.forEach(PowerSettings::withoutNulls);
    }
    return json;
  }
}
