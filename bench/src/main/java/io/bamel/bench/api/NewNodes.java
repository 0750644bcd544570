package io.bamel.bench.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.bench.RawEtcd;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.TestNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * New nodes as a DCIM sync creates them, both ways the sync benchmarks write them: the body of
 * {@code POST /api/v1/sync} (node {@code i} is {@link TestNodes#spec} in pool {@code pool-(i %
 * pools)}, no desired power) and the keys and values the sync writes for it, its first event
 * included ({@link RawEtcd#newNodeKeys}), for the raw baseline.
 *
 * @param syncBody the sync's JSON body
 * @param rawKeys the keys and values, six per node, in node order
 */
record NewNodes(byte[] syncBody, List<Map.Entry<String, byte[]>> rawKeys) {

  /** Nodes {@code from} (inclusive) to {@code to} (exclusive). */
  static NewNodes of(int from, int to, int pools) {
    ObjectNode body = Codec.mapper().createObjectNode();
    ArrayNode items = body.putArray("items");
    List<Map.Entry<String, byte[]>> raw = new ArrayList<>(6 * (to - from));
    for (int i = from; i < to; i++) {
      String id = TestNodes.id(i);
      NodeSpec spec =
          TestNodes.spec(i, "pool-" + (i % pools)).toBuilder().desiredPower(null).build();
      ObjectNode item = items.addObject();
      item.put("id", id);
      item.set("spec", Codec.mapper().valueToTree(spec));
      raw.addAll(
          RawEtcd.newNodeKeys(
              id, spec, NodeEvent.change(FleetKeys.T0, "created", "sync", "bench", "req-" + i)));
    }
    return new NewNodes(Codec.encode(body), raw);
  }
}
