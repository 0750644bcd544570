package io.bamel.power.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Predicate;

/**
 * The registered power interfaces: every {@link PowerInterfaceType} that {@link ServiceLoader}
 * finds on the class path, loaded once, in class-path order (the drivers' own four first in their
 * jar's file: redfish, ipmi, wol, proxmox). Two with one name, or two claiming one settings field,
 * is a start-up error, as is a name that is not lowercase letters, digits and dashes.
 */
public final class PowerInterfaceTypes {

  private static final Map<String, PowerInterfaceType> TYPES = load();
  private static final Map<String, PowerInterfaceType> BY_FIELD = byField();

  private PowerInterfaceTypes() {}

  /** The interface named {@code name} (exactly: wire names are lowercase), if one is registered. */
  public static Optional<PowerInterfaceType> find(String name) {
    return Optional.ofNullable(name == null ? null : TYPES.get(name));
  }

  /** Every registered interface, in registration order. */
  public static List<PowerInterfaceType> all() {
    return List.copyOf(TYPES.values());
  }

  /** The registered names, in registration order. */
  public static List<String> names() {
    return List.copyOf(TYPES.keySet());
  }

  /**
   * The names of the interfaces that have {@code capability}, joined for a message: {@code "redfish
   * or ipmi"} with {@code last} = {@code " or "}, {@code "redfish, ipmi and proxmox"} with {@code "
   * and "}.
   */
  public static String namesWhere(Predicate<PowerCapabilities> capability, String last) {
    List<String> names = new ArrayList<>();
    for (PowerInterfaceType type : TYPES.values()) {
      if (capability.test(type.capabilities())) {
        names.add(type.name());
      }
    }
    if (names.size() <= 1) {
      return String.join("", names);
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + last
        + names.get(names.size() - 1);
  }

  /** The spec fields of the interfaces' settings, in registration order. */
  public static List<String> settingsFields() {
    return List.copyOf(BY_FIELD.keySet());
  }

  /** The interface whose settings live in spec field {@code field}, if one is registered. */
  public static Optional<PowerInterfaceType> bySettingsField(String field) {
    return Optional.ofNullable(field == null ? null : BY_FIELD.get(field));
  }

  private static Map<String, PowerInterfaceType> byField() {
    Map<String, PowerInterfaceType> byField = new LinkedHashMap<>();
    for (PowerInterfaceType type : TYPES.values()) {
      if (type.settingsField() != null) {
        byField.put(type.settingsField(), type);
      }
    }
    return Collections.unmodifiableMap(byField);
  }

  private static Map<String, PowerInterfaceType> load() {
    Map<String, PowerInterfaceType> types = new LinkedHashMap<>();
    for (PowerInterfaceType type : ServiceLoader.load(PowerInterfaceType.class)) {
      String name = type.name();
      if (name == null || !name.matches("[a-z][a-z0-9-]{0,31}")) {
        throw new IllegalStateException(
            type.getClass().getName() + " declares an invalid power interface name: " + name);
      }
      PowerInterfaceType previous = types.putIfAbsent(name, type);
      if (previous != null && previous.getClass() != type.getClass()) {
        throw new IllegalStateException(
            "two power interfaces named "
                + name
                + ": "
                + previous.getClass().getName()
                + " and "
                + type.getClass().getName());
      }
    }
    Map<String, String> owners = new LinkedHashMap<>();
    for (PowerInterfaceType type : types.values()) {
      String field = type.settingsField();
      String owner = field == null ? null : owners.putIfAbsent(field, type.name());
      if (owner != null) {
        throw new IllegalStateException(
            "power interfaces " + owner + " and " + type.name() + " both claim field " + field);
      }
    }
    return Collections.unmodifiableMap(types);
  }
}
