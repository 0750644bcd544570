package io.bamel.inventory.model;

import java.util.List;
import java.util.Map;

/**
 * Immutable copies of the maps and lists records receive, refusing {@code null} keys, values and
 * elements with an {@link InvalidInputException} naming the entry, so that {@code
 * {"labels":{"k":null}}} is a field error rather than a failure deep inside a collection.
 */
final class Copies {

  private Copies() {}

  /** An immutable copy of {@code map} (empty when null), refusing null keys and values. */
  static <V> Map<String, V> map(String field, Map<String, V> map) {
    if (map == null || map.isEmpty()) {
      return Map.of();
    }
    for (Map.Entry<String, V> e : map.entrySet()) {
      if (e.getKey() == null) {
        throw new InvalidInputException(field, "must not have a null key");
      }
      if (e.getValue() == null) {
        throw new InvalidInputException(field + "." + Texts.quote(e.getKey()), "must not be null");
      }
    }
    return Map.copyOf(map);
  }

  /** An immutable copy of {@code list} (null stays null), refusing null elements. */
  static <T> List<T> list(String field, List<T> list) {
    if (list == null) {
      return null;
    }
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == null) {
        throw new InvalidInputException(field + "[" + i + "]", "must not be null");
      }
    }
    return List.copyOf(list);
  }
}
