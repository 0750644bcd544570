package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a node offers (or a set of pods asks for): CPU cores, memory and storage bytes, GPUs, and
 * custom resources such as {@code example.com/fpga}. Every value is a {@link Quantity}; absent
 * means none.
 */
public record ResourceCapacity(
    Quantity cpu,
    Quantity memory,
    Quantity gpu,
    Quantity storage,
    Map<String, Quantity> custom,
    @JsonAnySetter @JsonAnyGetter Map<String, Object> extensions) {

  /** The standard resource names, in the order used for display. */
  public static final String CPU = "cpu";

  /** Memory in bytes. */
  public static final String MEMORY = "memory";

  /** Whole GPUs. */
  public static final String GPU = "gpu";

  /** Storage in bytes. */
  public static final String STORAGE = "storage";

  private static final Pattern CUSTOM_NAME =
      Pattern.compile("([a-z0-9]([a-z0-9.-]*[a-z0-9])?/)?[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?");

  /** Nothing. */
  public static final ResourceCapacity NONE =
      new ResourceCapacity(null, null, null, null, null, null);

  /** Copies the maps and normalises missing ones to empty. */
  public ResourceCapacity {
    custom = Copies.map("custom", custom);
    extensions = Extensions.copy(extensions);
  }

  /** Capacity with the standard resources only. */
  public static ResourceCapacity of(String cpu, String memory, String gpu) {
    return new ResourceCapacity(
        cpu == null ? null : Quantity.parse(cpu),
        memory == null ? null : Quantity.parse(memory),
        gpu == null ? null : Quantity.parse(gpu),
        null,
        null,
        null);
  }

  /** The amount of resource {@code name} (standard or custom); zero when absent. */
  public Quantity get(String name) {
    Quantity q =
        switch (name) {
          case CPU -> cpu;
          case MEMORY -> memory;
          case GPU -> gpu;
          case STORAGE -> storage;
          default -> custom.get(name);
        };
    return q == null ? Quantity.ZERO : q;
  }

  /** Every resource present, standard ones first, as name to quantity. */
  @JsonIgnore
  public Map<String, Quantity> asMap() {
    Map<String, Quantity> all = new LinkedHashMap<>();
    if (cpu != null) {
      all.put(CPU, cpu);
    }
    if (memory != null) {
      all.put(MEMORY, memory);
    }
    if (gpu != null) {
      all.put(GPU, gpu);
    }
    if (storage != null) {
      all.put(STORAGE, storage);
    }
    all.putAll(custom);
    return all;
  }

  void validate(Validator v) {
    for (String name : custom.keySet()) {
      v.check(
          name.length() <= 253 && CUSTOM_NAME.matcher(name).matches(),
          "custom",
          "not a resource name: " + Texts.quote(name));
      v.check(custom.get(name) != null, "custom." + name, "must be a quantity");
    }
  }
}
