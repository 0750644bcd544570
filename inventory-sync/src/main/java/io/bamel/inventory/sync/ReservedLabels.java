package io.bamel.inventory.sync;

import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Labels that belong to the bamel component that writes them, because something decides on their
 * value: {@code netbox-last-updated} (the NetBox source skips a record that is not newer) and every
 * label under {@code bamel.io/}. Pure functions.
 *
 * <p>No API write adds one or changes its value, whatever the caller's scope: PUT, PATCH and every
 * sync format are checked here, by the API's node routes and by {@link SyncPlanner}. A write that
 * carries the stored value unchanged (a client that GETs a node and PUTs it back) or leaves the
 * label out (which only lets its owner write it again) passes. The owner's own path, the NetBox
 * pull and webhooks, is a {@link SyncPlanner.Rules} that {@link
 * SyncPlanner.Rules#ownsReservedLabels owns} them.
 */
public final class ReservedLabels {

  /** The prefix of bamel's own label keys. */
  public static final String PREFIX = "bamel.io/";

  /**
   * The label holding the NetBox {@code last_updated} a node was written from, owned by the NetBox
   * source. Named here, not only in the NetBox module, so that it stays reserved against PUT and
   * PATCH whichever DCIM modules a process loads.
   */
  public static final String NETBOX_LAST_UPDATED = "netbox-last-updated";

  private ReservedLabels() {}

  /** Whether label {@code key} is reserved. */
  public static boolean reserved(String key) {
    return key.equals(NETBOX_LAST_UPDATED) || key.startsWith(PREFIX);
  }

  /**
   * The reserved labels that {@code after} adds or gives another value than {@code before} (null
   * for a new node), sorted.
   */
  public static List<String> changed(NodeSpec before, NodeSpec after) {
    Map<String, String> old = before == null ? Map.of() : before.labels();
    TreeSet<String> out = new TreeSet<>();
    for (Map.Entry<String, String> e : after.labels().entrySet()) {
      if (reserved(e.getKey()) && !Objects.equals(old.get(e.getKey()), e.getValue())) {
        out.add(e.getKey());
      }
    }
    return new ArrayList<>(out);
  }

  /** One error per label, naming it. */
  public static List<FieldError> errors(List<String> labels) {
    return labels.stream()
        .map(
            l ->
                new FieldError(
                    "labels." + l,
                    "reserved: written only by the bamel component that owns it"
                        + (l.equals(NETBOX_LAST_UPDATED) ? " (the NetBox source)" : "")
                        + "; a write may keep its stored value but not add or change it"))
        .toList();
  }
}
