package io.bamel.inventory.api;

import io.bamel.inventory.model.NodeSpec;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The fields no two nodes may share: serial, MAC address and management address. An index from each
 * value to the node that holds it; pure and single-threaded (build one per request from the cache,
 * or keep one up to date while planning a sync).
 */
final class UniqueFields {

  /** A value already held by another node. */
  record Clash(String field, String value, String holder) {}

  private final Map<String, String> serials = new HashMap<>();
  private final Map<String, String> macs = new HashMap<>();
  private final Map<String, String> addresses = new HashMap<>();

  /** Records the unique values of node {@code id}. */
  void add(String id, NodeSpec spec) {
    put(serials, spec.serial(), id);
    put(macs, spec.macAddress(), id);
    put(addresses, spec.mgmtAddress(), id);
  }

  /** Forgets the unique values of node {@code id} (as they are in {@code spec}). */
  void remove(String id, NodeSpec spec) {
    removeIfHeld(serials, spec.serial(), id);
    removeIfHeld(macs, spec.macAddress(), id);
    removeIfHeld(addresses, spec.mgmtAddress(), id);
  }

  /** The first unique value of {@code spec} held by a node other than {@code id}. */
  Optional<Clash> clash(String id, NodeSpec spec) {
    return check("serial", serials, spec.serial(), id)
        .or(() -> check("macAddress", macs, spec.macAddress(), id))
        .or(() -> check("mgmtAddress", addresses, spec.mgmtAddress(), id));
  }

  /** The node holding serial {@code serial}, if any. */
  Optional<String> bySerial(String serial) {
    return Optional.ofNullable(serial == null ? null : serials.get(serial));
  }

  /** The node holding MAC {@code mac}, if any. */
  Optional<String> byMac(String mac) {
    return Optional.ofNullable(mac == null ? null : macs.get(mac));
  }

  /** The node holding management address {@code address}, if any. */
  Optional<String> byAddress(String address) {
    return Optional.ofNullable(address == null ? null : addresses.get(address));
  }

  private static Optional<Clash> check(
      String field, Map<String, String> index, String value, String id) {
    if (value == null) {
      return Optional.empty();
    }
    String holder = index.get(value);
    return holder == null || holder.equals(id)
        ? Optional.empty()
        : Optional.of(new Clash(field, value, holder));
  }

  private static void put(Map<String, String> index, String value, String id) {
    if (value != null) {
      index.putIfAbsent(value, id);
    }
  }

  private static void removeIfHeld(Map<String, String> index, String value, String id) {
    if (value != null) {
      index.remove(value, id);
    }
  }
}
