package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.etcd.jetcd.KeyValue;
import java.util.ArrayList;
import java.util.List;

/** Turns etcd key-values under {@code /baremetal/nodes/} into nodes. */
final class NodeDecoder {

  private NodeDecoder() {}

  /** Groups consecutive keys by node id; nodes without a spec are left out. */
  static List<Node> group(List<KeyValue> kvs) {
    List<Node> nodes = new ArrayList<>();
    String id = null;
    KeyValue spec = null;
    KeyValue status = null;
    KeyValue readings = null;
    for (KeyValue kv : kvs) {
      KeyRef ref = Keys.parse(Bytes.text(kv.getKey()));
      if (ref.id() == null) {
        continue;
      }
      if (!ref.id().equals(id)) {
        addIfComplete(nodes, id, spec, status, readings);
        id = ref.id();
        spec = null;
        status = null;
        readings = null;
      }
      switch (ref.kind()) {
        case NODE_SPEC -> spec = kv;
        case NODE_STATUS -> status = kv;
        case NODE_READINGS -> readings = kv;
        default -> {}
      }
    }
    addIfComplete(nodes, id, spec, status, readings);
    return nodes;
  }

  private static void addIfComplete(
      List<Node> nodes, String id, KeyValue spec, KeyValue status, KeyValue readings) {
    if (id != null && spec != null) {
      nodes.add(record(id, spec, status, readings, null).toNode());
    }
  }

  /** A node record from its keys (each may be null) and its newest event key. */
  static NodeRecord record(
      String id, KeyValue spec, KeyValue status, KeyValue readings, KeyValue newestEvent) {
    byte[] specBytes = spec == null ? null : spec.getValue().getBytes();
    byte[] statusBytes = status == null ? null : status.getValue().getBytes();
    return new NodeRecord(
        id,
        specBytes == null ? null : Codec.decode(specBytes, NodeSpec.class),
        spec == null ? 0 : spec.getModRevision(),
        specBytes,
        statusBytes == null ? null : Codec.decode(statusBytes, NodeStatus.class),
        status == null ? 0 : status.getModRevision(),
        statusBytes,
        readings == null ? null : Codec.decode(readings.getValue().getBytes(), NodeReadings.class),
        newestEvent == null ? 0 : Keys.parse(Bytes.text(newestEvent.getKey())).seq());
  }
}
