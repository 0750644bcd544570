package io.bamel.inventory.store;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PlaceholderSerials;
import java.util.function.Function;

/**
 * The spec fields no two nodes may share, each with its index key ({@code
 * /baremetal/index/{kind}/{value}}, holding the node id), kept by {@link NodeWrites} in the same
 * transaction as the spec. A placeholder serial ({@link PlaceholderSerials}) is no value: it is
 * stored in the spec and never indexed.
 */
enum UniqueField {
  SERIAL("serial", s -> PlaceholderSerials.identifying(s.serial()), Keys::indexSerial),
  MAC("macAddress", NodeSpec::macAddress, Keys::indexMac),
  MGMT("mgmtAddress", NodeSpec::mgmtAddress, Keys::indexMgmt);

  private final String field;
  private final Function<NodeSpec, String> value;
  private final Function<String, String> key;

  UniqueField(String field, Function<NodeSpec, String> value, Function<String, String> key) {
    this.field = field;
    this.value = value;
    this.key = key;
  }

  /** The spec field's name, as the API spells it. */
  String field() {
    return field;
  }

  /** The field's value in {@code spec} (null when {@code spec} is null or has none). */
  String of(NodeSpec spec) {
    return spec == null ? null : value.apply(spec);
  }

  /** The index key of {@code value}. */
  String key(String value) {
    return key.apply(value);
  }
}
