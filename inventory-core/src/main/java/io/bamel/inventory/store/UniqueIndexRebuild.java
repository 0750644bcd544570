package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;
import io.etcd.jetcd.KV;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one-off migration behind {@link EtcdInventory#rebuildUniqueIndex()}: writes the unique-field
 * index keys ({@code /baremetal/index/serial|mac|mgmt/...}) that stored nodes lack. Each key is
 * written with a guard that it does not exist yet and that the node's spec is still the one read,
 * so it never overwrites a key and is safe while the API writes; a second run writes nothing. A
 * value two stored nodes share keeps the node that comes first by id. The nodes come from a source
 * in id order, iterated afresh in each pass (etcd's paged listing, or a synced {@link
 * InventoryCache}, which spares reading the fleet a second time at start); the index is read paged,
 * so its cost per etcd reply does not grow with the fleet. A node the source shows at an older spec
 * than etcd's fails its guard and is tried again in the next pass, from the source as it is then.
 */
final class UniqueIndexRebuild {

  /** Passes over the fleet before giving up on nodes whose specs keep changing under it. */
  private static final int MAX_PASSES = 10;

  /**
   * Index keys per page, as a multiple of the store's page size (sized for nodes). etcd answers a
   * range with a limit after counting every key left in the range (its total), so reading a prefix
   * of n keys in pages of p visits about n * n / (2 * p) keys: 90 million for the 300,000 index
   * keys of 100,000 nodes in pages of 500 (about 35 s of etcd's CPU at start). An index key and its
   * value (a node id) are a tenth of a node's size or less, so pages 8 times larger stay within
   * what a node page may weigh and cut that work 8 times.
   */
  static final int INDEX_PAGE_FACTOR = 8;

  private final KV kv;
  private final Iterable<Node> nodesInIdOrder;
  private final EtcdInventory.Options options;

  /** {@code nodesInIdOrder}: each of its iterators reads the nodes as they are then. */
  UniqueIndexRebuild(KV kv, Iterable<Node> nodesInIdOrder, EtcdInventory.Options options) {
    this.kv = kv;
    this.nodesInIdOrder = nodesInIdOrder;
    this.options = options;
  }

  /** The number of index keys written. */
  int run() {
    int written = 0;
    for (int pass = 0; pass < MAX_PASSES; pass++) {
      PassResult result = pass();
      written += result.written();
      if (result.raced() == 0) {
        break;
      }
    }
    return written;
  }

  private record PassResult(int written, int raced) {}

  private PassResult pass() {
    Map<String, String> holders = new HashMap<>();
    new PrefixScan(kv, options.pageSize() * INDEX_PAGE_FACTOR, options.timeout())
        .forEach(
            Keys.INDEX,
            0,
            false,
            "reading the unique index",
            key -> holders.put(Bytes.text(key.getKey()), Bytes.text(key.getValue())));
    List<TxnPlan> plans = missingClaims(holders);
    int written = 0;
    int raced = 0;
    for (TxnPlan.Chunk chunk : TxnPlan.pack(plans)) {
      try {
        chunk.merged().commit(kv, options.timeout(), "the unique index");
        written += chunk.merged().claimCount();
      } catch (ConflictException | DuplicateValueException e) {
        for (TxnPlan plan : plans.subList(chunk.from(), chunk.to())) {
          try {
            plan.commit(kv, options.timeout(), "the unique index");
            written += plan.claimCount();
          } catch (ConflictException | DuplicateValueException | NotFoundException lost) {
            raced++;
          }
        }
      }
    }
    return new PassResult(written, raced);
  }

  /** One guarded plan per node that lacks index keys, in id order. */
  private List<TxnPlan> missingClaims(Map<String, String> holders) {
    List<TxnPlan> plans = new ArrayList<>();
    for (Node node : nodesInIdOrder) {
      if (node.spec() == null) {
        continue;
      }
      TxnPlan plan = new TxnPlan();
      plan.expectModRevision(Keys.nodeSpec(node.id()), node.specRevision());
      for (UniqueField field : UniqueField.values()) {
        String value = field.of(node.spec());
        if (value == null) {
          continue;
        }
        String key = field.key(value);
        if (holders.putIfAbsent(key, node.id()) == null) {
          plan.claim(key, field.field(), value, node.id());
        }
      }
      if (plan.claimCount() > 0) {
        plans.add(plan);
      }
    }
    return plans;
  }
}
