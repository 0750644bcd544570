package io.bamel.inventory.sync;

import io.bamel.inventory.model.PlaceholderSerials;
import io.bamel.inventory.store.SpecIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which node each record of a DCIM sync is: the one identity rule of every sync path (the native
 * {@code POST /api/v1/sync}, the NetBox pull and NetBox webhooks). Pure: a function of the set of
 * records and the inventory, never of the records' order.
 *
 * <ol>
 *   <li><b>A node with an {@code inventoryId} belongs to that record.</b> The record whose {@code
 *       inventoryId} a node holds is that node, whatever its name, serial or addresses became.
 *   <li><b>Matching only adopts.</b> A record no node belongs to may adopt a node that has no
 *       {@code inventoryId}: first one holding its serial (a placeholder serial is none, see {@link
 *       PlaceholderSerials}), its management address or its MAC address, then the node under its
 *       id. A node holding another {@code inventoryId} is never adopted: the rule never moves a
 *       node from one {@code inventoryId} to another.
 *   <li><b>Otherwise a new node</b> under the record's id. When a node under that id belongs to
 *       another record, or a better-ranked record takes the id, a record with a fallback id (a
 *       NetBox device's {@code netbox-<id>}) gets that; one without is a {@link Outcome#CONFLICT}
 *       naming the node it collided with.
 * </ol>
 *
 * <p>Where two records want one node, the better rank wins: a record with an {@code inventoryId}
 * before one without; {@code inventoryId}s of the form {@code <source>:<number>} (NetBox's {@code
 * netbox:<id>}) by number, the lower first, then the others as text; then the item's position in
 * the request. Two records with one {@code inventoryId} are one record twice: the better-ranked is
 * decided, the other is a {@link Outcome#DUPLICATE}.
 */
public final class IdentityRule {

  /**
   * What a record claims.
   *
   * @param index the item's position in the request
   * @param inventoryId the record's id in its DCIM (null: none)
   * @param id the node id the record names or implies (null: none)
   * @param fallbackId the node id to use when {@code id} is another record's (null: none)
   * @param serial the record's serial (a placeholder is ignored)
   * @param mgmtAddress the record's management address
   * @param macAddress the record's MAC address
   */
  public record Claim(
      int index,
      String inventoryId,
      String id,
      String fallbackId,
      String serial,
      String mgmtAddress,
      String macAddress) {}

  /** What the rule read of the inventory. */
  public interface Nodes {

    /** Whether a node {@code id} exists. */
    boolean exists(String id);

    /** The {@code inventoryId} of node {@code id}, or null (no such node, or none). */
    String owner(String id);

    /** The node holding {@code value} in {@code field}, if any. */
    Optional<String> holder(SpecIndex.Field field, String value);
  }

  /** How a record was decided. */
  public enum Outcome {
    /** The node holding the record's {@code inventoryId}. */
    OWNED,
    /** A node without an {@code inventoryId}, matched by serial, address, MAC or id. */
    ADOPTED,
    /** No node yet: one is created under {@link Decision#node()}. */
    NEW,
    /** The record's id is a node of another record and it has no fallback. */
    CONFLICT,
    /** Another record of the set has the same {@code inventoryId} and a better rank. */
    DUPLICATE,
    /** The record names no id and matches no node. */
    NONE
  }

  /**
   * The decision for one record.
   *
   * @param outcome how it was decided
   * @param node the node it is (OWNED, ADOPTED, NEW), collided with (CONFLICT) or that its twin
   *     took (DUPLICATE, may be null); null for NONE
   * @param other for CONFLICT, the {@code inventoryId} the node belongs to; for DUPLICATE, the
   *     index of the record that was decided
   */
  public record Decision(Outcome outcome, String node, String other) {}

  private static final Pattern NUMBERED = Pattern.compile("[^:]*:(\\d{1,18})");

  /** Better rank first: see the class comment. */
  public static final Comparator<Claim> RANK =
      Comparator.comparing((Claim c) -> c.inventoryId() == null)
          .thenComparingLong(c -> number(c.inventoryId()))
          .thenComparing(Claim::inventoryId, Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparingInt(Claim::index);

  private IdentityRule() {}

  /** The decision for each claim, by the claim's index. */
  public static Map<Integer, Decision> decide(List<Claim> claims, Nodes nodes) {
    List<Claim> ranked = new ArrayList<>(claims);
    ranked.sort(RANK);
    Map<Integer, Decision> out = new HashMap<>();
    Map<String, Integer> taken = new HashMap<>();
    Map<String, Claim> byInventoryId = new HashMap<>();
    for (Claim c : ranked) {
      if (c.inventoryId() == null) {
        continue;
      }
      Claim twin = byInventoryId.putIfAbsent(c.inventoryId(), c);
      if (twin != null) {
        out.put(c.index(), new Decision(Outcome.DUPLICATE, null, Integer.toString(twin.index())));
        continue;
      }
      Optional<String> owned = nodes.holder(SpecIndex.Field.INVENTORY_ID, c.inventoryId());
      if (owned.isPresent()) {
        out.put(c.index(), new Decision(Outcome.OWNED, owned.get(), null));
        taken.put(owned.get(), c.index());
      }
    }
    for (Claim c : ranked) {
      if (out.containsKey(c.index())) {
        continue;
      }
      for (Map.Entry<SpecIndex.Field, String> key : keys(c)) {
        String holder = nodes.holder(key.getKey(), key.getValue()).orElse(null);
        if (holder != null && nodes.owner(holder) == null && !taken.containsKey(holder)) {
          out.put(c.index(), new Decision(Outcome.ADOPTED, holder, null));
          taken.put(holder, c.index());
          break;
        }
      }
    }
    for (Claim c : ranked) {
      if (out.containsKey(c.index())) {
        continue;
      }
      Decision d = byId(c.id(), c, nodes, taken);
      if (d == null || d.outcome() == Outcome.CONFLICT) {
        Decision fallback = byId(c.fallbackId(), c, nodes, taken);
        d = fallback == null ? d : fallback;
      }
      if (d == null) {
        d = new Decision(Outcome.NONE, null, null);
      }
      if (d.outcome() != Outcome.CONFLICT && d.node() != null) {
        taken.put(d.node(), c.index());
      }
      out.put(c.index(), d);
    }
    return out;
  }

  /** The claim's matching values, in the order they are tried (absent ones left out). */
  private static List<Map.Entry<SpecIndex.Field, String>> keys(Claim c) {
    List<Map.Entry<SpecIndex.Field, String>> keys = new ArrayList<>(3);
    String serial = PlaceholderSerials.identifying(c.serial());
    if (serial != null) {
      keys.add(Map.entry(SpecIndex.Field.SERIAL, serial));
    }
    if (c.mgmtAddress() != null) {
      keys.add(Map.entry(SpecIndex.Field.MGMT_ADDRESS, c.mgmtAddress()));
    }
    if (c.macAddress() != null) {
      keys.add(Map.entry(SpecIndex.Field.MAC_ADDRESS, c.macAddress()));
    }
    return keys;
  }

  /** The decision for node id {@code id}, or null when there is none. */
  private static Decision byId(String id, Claim c, Nodes nodes, Map<String, Integer> taken) {
    if (id == null) {
      return null;
    }
    String owner = nodes.owner(id);
    if (owner != null) {
      return new Decision(Outcome.CONFLICT, id, owner);
    }
    Integer other = taken.get(id);
    if (other != null) {
      return new Decision(Outcome.CONFLICT, id, "item " + other);
    }
    return new Decision(nodes.exists(id) ? Outcome.ADOPTED : Outcome.NEW, id, null);
  }

  /** The number of a {@code <source>:<number>} inventoryId, or {@link Long#MAX_VALUE}. */
  static long number(String inventoryId) {
    if (inventoryId == null) {
      return Long.MAX_VALUE;
    }
    Matcher m = NUMBERED.matcher(inventoryId);
    return m.matches() ? Long.parseLong(m.group(1)) : Long.MAX_VALUE;
  }
}
