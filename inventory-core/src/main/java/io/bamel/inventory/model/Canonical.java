package io.bamel.inventory.model;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One shared instance per key for immutable values that repeat across a fleet (a quantity such as
 * {@code 512Gi}, a power interface), so that a cache of 100,000 nodes holds a site's few hardware
 * sizes once each rather than once per node. Bounded: after {@code capacity} keys, new keys get a
 * fresh instance each (as without this class), so input of many distinct values cannot grow it.
 * Only for values whose every visible part is determined by the key.
 *
 * @param <K> the key (its {@code equals} decides what is shared)
 * @param <V> the immutable value made from the key
 */
final class Canonical<K, V> {

  private final int capacity;
  private final ConcurrentHashMap<K, V> known = new ConcurrentHashMap<>();

  Canonical(int capacity) {
    this.capacity = capacity;
  }

  /**
   * The shared value for {@code key}, made by {@code make} the first time (and every time once the
   * bound is reached). {@code make} may throw; nothing is kept then.
   */
  V get(K key, Function<? super K, ? extends V> make) {
    V value = known.get(key);
    if (value != null) {
      return value;
    }
    V made = make.apply(key);
    if (known.size() >= capacity) {
      return made;
    }
    V raced = known.putIfAbsent(key, made);
    return raced == null ? made : raced;
  }

  /** How many keys are shared (for tests). */
  int size() {
    return known.size();
  }
}
