package io.bamel.pool;

import io.bamel.inventory.model.Quantity;
import io.bamel.inventory.model.ResourceCapacity;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Resource amounts as plain numbers by name ({@code cpu} in cores, {@code memory} in bytes, {@code
 * gpu}, custom names), for the arithmetic of scaling decisions. Immutable; absent means 0.
 */
public record Resources(Map<String, Double> amounts) {

  /** Nothing. */
  public static final Resources NONE = new Resources(Map.of());

  /** Copies the map, keeping only positive amounts. */
  public Resources {
    Map<String, Double> copy = new HashMap<>(amounts.size() * 2);
    amounts.forEach(
        (k, v) -> {
          if (v != null && v > 0) {
            copy.put(k, v);
          }
        });
    // A HashMap behind an unmodifiable view: iterating it allocates nothing (Map.copyOf's does).
    amounts = Collections.unmodifiableMap(copy);
  }

  /** Resources from name/amount pairs: {@code of("cpu", 4, "memory", 8e9)}. */
  public static Resources of(Object... pairs) {
    Map<String, Double> map = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], ((Number) pairs[i + 1]).doubleValue());
    }
    return new Resources(map);
  }

  /** The amounts of a node's or a pod's capacity. */
  public static Resources from(ResourceCapacity capacity) {
    Map<String, Double> map = new HashMap<>();
    for (Map.Entry<String, Quantity> e : capacity.asMap().entrySet()) {
      map.put(e.getKey(), e.getValue().asDouble());
    }
    return new Resources(map);
  }

  /** The amount of {@code resource}, 0 when absent. */
  public double get(String resource) {
    return amounts.getOrDefault(resource, 0.0);
  }

  /** The sum. */
  public Resources plus(Resources other) {
    Map<String, Double> sum = new HashMap<>(amounts);
    other.amounts.forEach((k, v) -> sum.merge(k, v, Double::sum));
    return new Resources(sum);
  }

  /** The difference, floored at 0 per resource. */
  public Resources minus(Resources other) {
    Map<String, Double> diff = new HashMap<>(amounts);
    other.amounts.forEach((k, v) -> diff.merge(k, -v, Double::sum));
    return new Resources(diff);
  }

  /** The sum of many. */
  public static Resources sum(Collection<Resources> all) {
    Sum total = new Sum();
    for (Resources r : all) {
      total.add(r);
    }
    return total.build();
  }

  /**
   * A running total that does not copy on each addition (sums over thousands of nodes). Not
   * thread-safe; {@link #build()} gives the immutable result.
   */
  public static final class Sum {
    private final Map<String, double[]> amounts = new HashMap<>();

    /** Adds {@code r}; returns this. */
    public Sum add(Resources r) {
      r.amounts.forEach((k, v) -> add(k, v));
      return this;
    }

    /** Adds {@code amount} of {@code resource}; returns this. */
    public Sum add(String resource, double amount) {
      double[] total = amounts.get(resource);
      if (total == null) {
        amounts.put(resource, new double[] {amount});
      } else {
        total[0] += amount;
      }
      return this;
    }

    /** The total so far. */
    public Resources build() {
      Map<String, Double> out = new HashMap<>(amounts.size() * 2);
      amounts.forEach((k, v) -> out.put(k, v[0]));
      return new Resources(out);
    }
  }

  /** Whether every amount of {@code request} fits in this. */
  public boolean fits(Resources request) {
    for (Map.Entry<String, Double> e : request.amounts.entrySet()) {
      if (get(e.getKey()) + 1e-9 < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Whether nothing is here. */
  public boolean isEmpty() {
    return amounts.isEmpty();
  }
}
