package io.bamel.pool;

import io.bamel.inventory.model.Quantity;
import io.bamel.inventory.model.ResourceCapacity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;

/** {@link Resources} back as the inventory's {@link ResourceCapacity}, to millis. Pure. */
public final class Capacities {

  private Capacities() {}

  /** The capacity holding {@code r}: standard names in their fields, others as custom. */
  public static ResourceCapacity of(Resources r) {
    Quantity cpu = null;
    Quantity memory = null;
    Quantity gpu = null;
    Quantity storage = null;
    Map<String, Quantity> custom = new HashMap<>();
    for (var e : r.amounts().entrySet()) {
      Quantity q = Quantity.of(BigDecimal.valueOf(e.getValue()).setScale(3, RoundingMode.HALF_UP));
      switch (e.getKey()) {
        case ResourceCapacity.CPU -> cpu = q;
        case ResourceCapacity.MEMORY -> memory = q;
        case ResourceCapacity.GPU -> gpu = q;
        case ResourceCapacity.STORAGE -> storage = q;
        default -> custom.put(e.getKey(), q);
      }
    }
    return new ResourceCapacity(cpu, memory, gpu, storage, custom, null);
  }
}
