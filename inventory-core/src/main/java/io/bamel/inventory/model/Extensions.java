package io.bamel.inventory.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fields this version does not know. Every record keeps them (Jackson's any-setter/any-getter) and
 * writes them back, so that a record written by a newer bamel survives an update by this one.
 */
final class Extensions {

  private Extensions() {}

  /** An unmodifiable copy, keeping order; {@code null} becomes empty. */
  static Map<String, Object> copy(Map<String, Object> extensions) {
    if (extensions == null || extensions.isEmpty()) {
      return Map.of();
    }
    return Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }
}
