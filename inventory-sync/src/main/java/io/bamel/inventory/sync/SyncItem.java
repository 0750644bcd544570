package io.bamel.inventory.sync;

import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One record of a DCIM sync, read from the request: its position, the id it asks for (null: derive
 * none), the fields used to match it to an existing node ({@code keys}: inventoryId, serial,
 * mgmtAddress, macAddress), and how to compute the desired spec from the matched node's spec (null
 * for a new node). An item that could not be read carries its errors instead.
 *
 * @param index the item's position in the request, for the report
 * @param id the node id it names or implies
 * @param keys a spec holding the matching fields
 * @param desired the desired spec given the current one (null: new node)
 * @param errors why the item could not be read; empty when it could
 * @param fallbackId the node id to use when {@code id} is another record's node ({@link
 *     IdentityRule}); null: none (the native sync names its ids, a NetBox device has {@code
 *     netbox-<id>})
 */
public record SyncItem(
    int index,
    String id,
    NodeSpec keys,
    UnaryOperator<NodeSpec> desired,
    List<FieldError> errors,
    String fallbackId) {

  /** Copies the errors. */
  public SyncItem {
    errors = errors == null ? List.of() : List.copyOf(errors);
  }

  /** An item without a fallback id. */
  public SyncItem(
      int index,
      String id,
      NodeSpec keys,
      UnaryOperator<NodeSpec> desired,
      List<FieldError> errors) {
    this(index, id, keys, desired, errors, null);
  }

  /** An item that could not be read. */
  public static SyncItem unreadable(int index, String id, List<FieldError> errors) {
    return new SyncItem(index, id, null, null, errors);
  }

  /**
   * A bamel record: the spec replaces the hardware and location fields; the power fields and the
   * fields unknown to this version are kept from the current spec.
   */
  public static SyncItem replacing(int index, String id, NodeSpec spec) {
    return new SyncItem(
        index,
        id,
        spec,
        current ->
            current == null
                ? SpecRules.keepPowerFields(spec, null)
                : SpecRules.keepPowerFields(spec, current).withUnknownFields(current.extensions()),
        null);
  }
}
