package io.bamel.pool;

import io.bamel.inventory.model.Quantity;
import io.bamel.inventory.model.ResourceCapacity;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Resource amounts as plain numbers by name ({@code cpu} in cores, {@code memory} in bytes, {@code
 * gpu}, custom names), for the arithmetic of scaling decisions. Immutable; absent means 0.
 */
public record Resources(Map<String, Double> amounts) {

  /** Nothing. */
  public static final Resources NONE = new Resources(Map.of());

  /**
   * Copies the map, keeping only positive amounts; a map built by this class ({@link Built}, only
   * positive amounts, owned by no one else) is taken as it is.
   */
  public Resources {
    if (amounts instanceof Built built) {
      amounts = built.view;
    } else {
      Built copy = new Built(amounts.size());
      amounts.forEach(copy::putPositive);
      // A HashMap behind an unmodifiable view: iterating it allocates nothing (Map.copyOf's does).
      amounts = copy.view;
    }
  }

  /**
   * A map filled by this class with positive amounts only, handed to the constructor once (so it is
   * not copied again): the conversions and sums over thousands of nodes each cycle allocate one map
   * per result instead of two.
   */
  private static final class Built extends HashMap<String, Double> {
    private final Map<String, Double> view = Collections.unmodifiableMap(this);

    Built(int expected) {
      super(Math.max(4, expected * 2));
    }

    void putPositive(String name, Double amount) {
      if (amount != null && amount > 0) {
        put(name, amount);
      }
    }
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
    Built map = new Built(4 + capacity.custom().size());
    put(map, ResourceCapacity.CPU, capacity.cpu());
    put(map, ResourceCapacity.MEMORY, capacity.memory());
    put(map, ResourceCapacity.GPU, capacity.gpu());
    put(map, ResourceCapacity.STORAGE, capacity.storage());
    capacity.custom().forEach((k, q) -> put(map, k, q));
    return new Resources(map);
  }

  private static void put(Built map, String name, Quantity q) {
    if (q != null) {
      map.putPositive(name, q.asDouble());
    }
  }

  /**
   * Kubernetes amounts (base units) as resources, each name mapped by {@code name} (amounts of
   * names mapped alike are added).
   */
  static Resources mapped(Map<String, BigDecimal> amounts, UnaryOperator<String> name) {
    Built map = new Built(amounts.size());
    amounts.forEach((k, v) -> map.merge(name.apply(k), v.doubleValue(), Double::sum));
    map.values().removeIf(v -> !(v > 0));
    return new Resources(map);
  }

  /** The amount of {@code resource}, 0 when absent. */
  public double get(String resource) {
    return amounts.getOrDefault(resource, 0.0);
  }

  /** The sum. */
  public Resources plus(Resources other) {
    Built sum = new Built(amounts.size() + other.amounts.size());
    sum.putAll(amounts);
    other.amounts.forEach((k, v) -> sum.merge(k, v, Double::sum));
    return new Resources(sum);
  }

  /** The difference, floored at 0 per resource. */
  public Resources minus(Resources other) {
    Built diff = new Built(amounts.size());
    diff.putAll(amounts);
    other.amounts.forEach((k, v) -> diff.merge(k, -v, Double::sum));
    diff.values().removeIf(v -> !(v > 0));
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
    // A handful of names at most (cpu, memory, gpu...): parallel arrays searched in order, the
    // names compared by identity first (the standard names are the same constant strings).
    private String[] names = new String[4];
    private double[] totals = new double[4];
    private int size;

    /** Adds {@code r}; returns this. */
    public Sum add(Resources r) {
      for (Map.Entry<String, Double> e : r.amounts.entrySet()) {
        add(e.getKey(), e.getValue());
      }
      return this;
    }

    /** Adds {@code amount} of {@code resource}; returns this. */
    public Sum add(String resource, double amount) {
      for (int i = 0; i < size; i++) {
        if (names[i] == resource) {
          totals[i] += amount;
          return this;
        }
      }
      for (int i = 0; i < size; i++) {
        if (names[i].equals(resource)) {
          totals[i] += amount;
          return this;
        }
      }
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
        totals = Arrays.copyOf(totals, size * 2);
      }
      names[size] = resource;
      totals[size++] = amount;
      return this;
    }

    /** The total so far. */
    public Resources build() {
      if (size == 0) {
        return NONE;
      }
      Built out = new Built(size);
      for (int i = 0; i < size; i++) {
        out.putPositive(names[i], totals[i]);
      }
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
