package io.bamel.inventory.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.power.spi.PowerInterfaceTypes;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Finds fields a client sent that the model does not know. The model keeps such fields in each
 * record's {@code extensions} (so data written by a newer bamel survives a round trip through an
 * older one); in API input they are almost always typos, so the API rejects them.
 *
 * <p>A power interface's settings field of a node spec ({@code ipmi}, {@code wakeOnLan}, ...) is
 * kept among the spec's extensions, opaque to the model: it is a known field, and its members are
 * checked by its interface ({@code PowerInterfaceType.unknownSettings}).
 *
 * <p>A member literally named {@code extensions} never reaches that map: it is the name of the
 * records' catch-all component, which Jackson does not bind as a property and drops. {@link
 * #extensionsMembers} finds it in the request's JSON tree instead, at any depth, so it is refused
 * like every other unknown member.
 */
final class UnknownFields {

  private static final int MAX_DEPTH = 8;

  /** Each record class's components, looked up once. */
  private static final ClassValue<RecordComponent[]> COMPONENTS =
      new ClassValue<>() {
        @Override
        protected RecordComponent[] computeValue(Class<?> type) {
          return type.getRecordComponents();
        }
      };

  private UnknownFields() {}

  /** One error per unknown field anywhere in {@code value}. */
  static List<FieldError> find(Object value) {
    List<FieldError> errors = new ArrayList<>();
    walk(value, "", errors, 0);
    return errors;
  }

  /**
   * Whether {@code value} may hold unknown fields: a record or a collection (the paths of the
   * others are not built).
   */
  private static boolean mayHold(Object value) {
    return value instanceof Collection<?> || value != null && value.getClass().isRecord();
  }

  /**
   * One error per member named {@code extensions} in {@code tree}, where {@code type} (a record,
   * possibly nesting records in components, lists and maps) keeps unknown fields under that name.
   */
  static List<FieldError> extensionsMembers(JsonNode tree, Type type) {
    List<FieldError> errors = new ArrayList<>();
    walkTree(tree, type, "", errors, 0);
    return errors;
  }

  private static void walkTree(
      JsonNode tree, Type type, String path, List<FieldError> errors, int depth) {
    if (tree == null || depth > MAX_DEPTH) {
      return;
    }
    if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
      Type[] args = p.getActualTypeArguments();
      if (Collection.class.isAssignableFrom(raw) && tree.isArray()) {
        for (int i = 0; i < tree.size(); i++) {
          walkTree(tree.get(i), args[0], path + "[" + i + "]", errors, depth + 1);
        }
      } else if (Map.class.isAssignableFrom(raw) && tree.isObject() && args.length == 2) {
        for (Map.Entry<String, JsonNode> e : tree.properties()) {
          walkTree(e.getValue(), args[1], at(path, e.getKey()), errors, depth + 1);
        }
      }
      return;
    }
    if (!(type instanceof Class<?> c) || !c.isRecord() || !tree.isObject()) {
      return;
    }
    for (RecordComponent component : COMPONENTS.get(c)) {
      JsonNode member = tree.get(component.getName());
      if (member == null) {
        continue;
      }
      if (component.getName().equals("extensions")
          && Map.class.isAssignableFrom(component.getType())) {
        errors.add(new FieldError(at(path, "extensions"), "unknown field"));
      } else {
        walkTree(
            member, component.getGenericType(), at(path, component.getName()), errors, depth + 1);
      }
    }
  }

  private static String at(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static void walk(Object value, String path, List<FieldError> errors, int depth) {
    if (value == null || depth > MAX_DEPTH) {
      return;
    }
    if (value instanceof Collection<?> list) {
      int i = 0;
      for (Object item : list) {
        walk(item, path + "[" + i++ + "]", errors, depth + 1);
      }
      return;
    }
    if (!value.getClass().isRecord()) {
      return;
    }
    for (RecordComponent component : COMPONENTS.get(value.getClass())) {
      Object field;
      try {
        field = component.getAccessor().invoke(value);
      } catch (ReflectiveOperationException e) {
        continue;
      }
      String name = component.getName();
      if (name.equals("extensions") && field instanceof Map<?, ?> unknown) {
        for (Map.Entry<?, ?> e : unknown.entrySet()) {
          String where = at(path, String.valueOf(e.getKey()));
          JsonNode settings =
              value instanceof NodeSpec spec ? spec.settings(String.valueOf(e.getKey())) : null;
          if (settings == null) {
            errors.add(new FieldError(where, "unknown field"));
            continue;
          }
          // A power interface's settings: known as a field, its members known to its interface.
          PowerInterfaceTypes.bySettingsField(String.valueOf(e.getKey()))
              .map(type -> type.unknownSettings(settings))
              .orElse(List.of())
              .forEach(member -> errors.add(new FieldError(at(where, member), "unknown field")));
        }
      } else if (field instanceof Map<?, ?> map) {
        for (Map.Entry<?, ?> e : map.entrySet()) {
          if (mayHold(e.getValue())) {
            walk(e.getValue(), at(path, name) + "." + e.getKey(), errors, depth + 1);
          }
        }
      } else if (mayHold(field)) {
        walk(field, at(path, name), errors, depth + 1);
      }
    }
  }
}
