package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.spi.NodeFacts;
import io.bamel.power.spi.SettingsJson;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.Map;

/**
 * A node's spec as a power interface reads it ({@link NodeFacts}): a field by its wire name is the
 * spec's record component of that name or, for a field this model does not declare (every power
 * interface's settings field), the value kept among its extensions. The model never looks inside an
 * interface's settings.
 */
public final class SpecFacts implements NodeFacts {

  private static final Map<String, Method> COMPONENTS = components();

  private final String id;
  private final NodeSpec spec;

  SpecFacts(String id, NodeSpec spec) {
    this.id = id;
    this.spec = spec;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String mgmtAddress() {
    return spec.mgmtAddress();
  }

  @Override
  public String macAddress() {
    return spec.macAddress();
  }

  @Override
  public JsonNode field(String name) {
    Object value = value(name);
    JsonNode json = value instanceof JsonNode node ? node : SettingsJson.toJson(value);
    return json == null || json.isNull() ? null : json;
  }

  /** The Java value of field {@code name}: a component's value or an extension, or null. */
  public Object value(String name) {
    Method accessor = COMPONENTS.get(name);
    if (accessor == null) {
      return spec.extensions().get(name);
    }
    try {
      return accessor.invoke(spec);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read NodeSpec." + name, e);
    }
  }

  private static Map<String, Method> components() {
    Map<String, Method> byName = new HashMap<>();
    for (RecordComponent c : NodeSpec.class.getRecordComponents()) {
      if (c.getName().equals("extensions")) {
        continue;
      }
      JsonProperty renamed = c.getAccessor().getAnnotation(JsonProperty.class);
      String wireName =
          renamed != null && !renamed.value().isEmpty() ? renamed.value() : c.getName();
      byName.put(wireName, c.getAccessor());
    }
    return Map.copyOf(byName);
  }
}
