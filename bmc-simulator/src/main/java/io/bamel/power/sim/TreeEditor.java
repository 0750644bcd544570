package io.bamel.power.sim;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Applies {@link TreeEdits} to a tree of resources by path, in place: renames (every link follows),
 * removals (every link to a removed resource goes, and collection counts are fixed), additions
 * (linked from their parent collection), values set or removed at JSON pointers, and trailing
 * slashes. Every Redfish name it needs comes from {@link SimVocabulary}.
 */
final class TreeEditor {

  private static final SimVocabulary WIRE = SimVocabulary.WIRE;

  private TreeEditor() {}

  static void apply(TreeEdits edits, Map<String, ObjectNode> tree, Map<String, String> places) {
    UnaryOperator<String> resolve = s -> resolve(s, places);
    edits
        .rename()
        .forEach(
            (from, to) -> {
              String f = resolve.apply(from);
              String t = resolve.apply(to);
              rename(tree, f, t);
              places.replaceAll((k, v) -> moved(v, f, t));
            });
    for (String path : edits.remove()) {
      remove(tree, resolve.apply(path));
    }
    edits
        .add()
        .forEach(
            (path, body) -> {
              String p = resolve.apply(path);
              ObjectNode node = body.deepCopy();
              mapStrings(node, resolve);
              node.put(WIRE.odata().id(), p);
              tree.put(p, node);
              ObjectNode parent = tree.get(p.substring(0, p.lastIndexOf('/')));
              if (parent != null
                  && parent.get(WIRE.odata().members()) instanceof ArrayNode members) {
                members.addObject().put(WIRE.odata().id(), p);
              }
            });
    edits
        .set()
        .forEach(
            (path, values) -> {
              ObjectNode node = tree.get(resolve.apply(path));
              if (node != null) {
                JsonOverlay overlay = new JsonOverlay(node);
                values.forEach(
                    (pointer, value) -> {
                      JsonNode v = value.deepCopy();
                      v = v.isTextual() ? TextNode.valueOf(resolve.apply(v.asText())) : v;
                      if (v.isContainerNode()) {
                        mapStrings(v, resolve);
                      }
                      overlay.set(JsonPointer.compile(pointer), v, true);
                    });
                tree.put(resolve.apply(path), overlay.result());
              }
            });
    edits
        .unset()
        .forEach(
            (path, pointers) -> {
              ObjectNode node = tree.get(resolve.apply(path));
              if (node != null) {
                JsonOverlay overlay = new JsonOverlay(node);
                pointers.forEach(p -> overlay.remove(JsonPointer.compile(p)));
                tree.put(resolve.apply(path), overlay.result());
              }
            });
  }

  private static String resolve(String text, Map<String, String> places) {
    String out = text;
    for (Map.Entry<String, String> e : places.entrySet()) {
      if (e.getValue() != null) {
        out = out.replace(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  /** {@code value} with path {@code from} (or a path below it) moved to {@code to}. */
  private static String moved(String value, String from, String to) {
    if (value == null) {
      return null;
    }
    if (value.equals(from)) {
      return to;
    }
    if (value.startsWith(from)) {
      char next = value.charAt(from.length());
      if (next == '/' || next == '#') {
        return to + value.substring(from.length());
      }
    }
    return value;
  }

  private static void rename(Map<String, ObjectNode> tree, String from, String to) {
    Map<String, ObjectNode> renamed = new LinkedHashMap<>();
    tree.forEach(
        (path, node) -> {
          mapStrings(node, v -> moved(v, from, to));
          renamed.put(moved(path, from, to), node);
        });
    ObjectNode moved = renamed.get(to);
    if (moved != null && JsonOverlay.has(moved, WIRE.odata().resourceId())) {
      moved.put(
          WIRE.odata().resourceId().getMatchingProperty(), to.substring(to.lastIndexOf('/') + 1));
    }
    tree.clear();
    tree.putAll(renamed);
  }

  private static void remove(Map<String, ObjectNode> tree, String path) {
    if (!tree.keySet().removeIf(p -> within(p, path))) {
      return;
    }
    tree.values().forEach(node -> dropLinks(node, path));
  }

  /** Removes every link object in {@code node} that points at {@code path} or below it. */
  static void dropLinks(JsonNode node, String path) {
    if (node instanceof ObjectNode object) {
      Iterator<Map.Entry<String, JsonNode>> fields = object.properties().iterator();
      while (fields.hasNext()) {
        JsonNode value = fields.next().getValue();
        if (pointsInto(value, path)) {
          fields.remove();
        } else {
          dropLinks(value, path);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = array.size() - 1; i >= 0; i--) {
        if (pointsInto(array.get(i), path)) {
          array.remove(i);
        } else {
          dropLinks(array.get(i), path);
        }
      }
    }
  }

  private static boolean pointsInto(JsonNode value, String path) {
    JsonNode id = value.isObject() ? value.get(WIRE.odata().id()) : null;
    if (id == null || !id.isTextual()) {
      return false;
    }
    return within(normal(id.asText()), path);
  }

  /** Whether {@code value} is {@code path} or a path (or fragment) below it. */
  private static boolean within(String value, String path) {
    return value.equals(path) || value.startsWith(path + "/") || value.startsWith(path + "#");
  }

  /** Sets every {@code X@odata.count} beside an array {@code X} to the array's size. */
  static void fixCounts(JsonNode node) {
    if (node instanceof ObjectNode object) {
      String suffix = WIRE.odata().countSuffix();
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode value = object.get(name);
        if (name.endsWith(suffix)) {
          JsonNode array = object.get(name.substring(0, name.length() - suffix.length()));
          if (array != null && array.isArray()) {
            object.put(name, array.size());
          }
        } else {
          fixCounts(value);
        }
      }
    } else if (node instanceof ArrayNode array) {
      array.forEach(TreeEditor::fixCounts);
    }
  }

  /** Replaces every string value in {@code node} (not property names) with {@code change}'s. */
  static void mapStrings(JsonNode node, UnaryOperator<String> change) {
    if (node instanceof ObjectNode object) {
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode value = object.get(name);
        if (value.isTextual()) {
          object.put(name, change.apply(value.asText()));
        } else {
          mapStrings(value, change);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        JsonNode value = array.get(i);
        if (value.isTextual()) {
          array.set(i, TextNode.valueOf(change.apply(value.asText())));
        } else {
          mapStrings(value, change);
        }
      }
    }
  }

  /** A link with {@code /} at its end (a link with a fragment stays as it is). */
  static String withSlash(String value) {
    String root = WIRE.root();
    if (!(value.equals(root) || value.startsWith(root + "/"))
        || value.endsWith("/")
        || value.contains("#")) {
      return value;
    }
    return value + "/";
  }

  /** A path without its trailing {@code /}. */
  static String normal(String path) {
    return ProfileTree.normal(path);
  }
}
