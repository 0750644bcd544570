package io.bamel.power.sim;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Values set or removed at JSON pointers on a shared resource without changing it: the containers
 * on each pointer's path are copied once, everything else stays shared with the original. The
 * simulator's trees are shared by every system; a request's state goes on such an overlay.
 */
final class JsonOverlay {

  private final ObjectNode root;
  private final Map<JsonNode, JsonNode> copies = new IdentityHashMap<>();

  /** An overlay on {@code base}, which is never changed. */
  JsonOverlay(ObjectNode base) {
    this.root = base.objectNode().setAll(base);
    copies.put(root, root);
  }

  /** The resource with every change so far. */
  ObjectNode result() {
    return root;
  }

  /** Whether {@code pointer} names a value in {@code node}. */
  static boolean has(JsonNode node, JsonPointer pointer) {
    return !node.at(pointer).isMissingNode();
  }

  /**
   * Sets {@code value} at {@code pointer} when its parent exists; objects missing on the way are
   * created only where {@code create} says. Returns this.
   */
  JsonOverlay set(JsonPointer pointer, JsonNode value, boolean create) {
    JsonNode parent = container(pointer.head(), create);
    String last = pointer.last().getMatchingProperty();
    if (parent instanceof ObjectNode object) {
      object.set(last, value);
    } else if (parent instanceof ArrayNode array) {
      int index = pointer.last().getMatchingIndex();
      if (index >= 0 && index < array.size()) {
        array.set(index, value);
      }
    }
    return this;
  }

  /** Sets {@code value} at {@code pointer} only where the pointer already names a value. */
  JsonOverlay replace(JsonPointer pointer, JsonNode value) {
    return has(root, pointer) ? set(pointer, value, false) : this;
  }

  /** Removes the value at {@code pointer}, if there is one. */
  JsonOverlay remove(JsonPointer pointer) {
    if (!has(root, pointer)) {
      return this;
    }
    JsonNode parent = container(pointer.head(), false);
    if (parent instanceof ObjectNode object) {
      object.remove(pointer.last().getMatchingProperty());
    } else if (parent instanceof ArrayNode array) {
      array.remove(pointer.last().getMatchingIndex());
    }
    return this;
  }

  /** The container at {@code pointer}, copied (once) so that it may change; null when absent. */
  private JsonNode container(JsonPointer pointer, boolean create) {
    JsonNode current = root;
    for (JsonPointer p = pointer; p != null && !p.matches(); p = p.tail()) {
      JsonNode next;
      if (current instanceof ObjectNode object) {
        String name = p.getMatchingProperty();
        next = object.get(name);
        if (next == null) {
          if (!create) {
            return null;
          }
          next = JsonNodeFactory.instance.objectNode();
          copies.put(next, next);
        } else {
          next = copy(next);
        }
        object.set(name, next);
      } else if (current instanceof ArrayNode array) {
        int index = p.getMatchingIndex();
        if (index < 0 || index >= array.size()) {
          return null;
        }
        next = copy(array.get(index));
        array.set(index, next);
      } else {
        return null;
      }
      current = next;
    }
    return current;
  }

  private JsonNode copy(JsonNode node) {
    if (copies.containsKey(node)) {
      return node;
    }
    JsonNode copy;
    if (node instanceof ObjectNode object) {
      copy = object.objectNode().setAll(object);
    } else if (node instanceof ArrayNode array) {
      copy = array.arrayNode().addAll(array);
    } else {
      return node;
    }
    copies.put(copy, copy);
    return copy;
  }
}
