package io.bamel.inventory.store;

import dev.failsafe.RetryPolicy;
import io.bamel.inventory.model.Ids;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.runtime.Retries;
import io.bamel.inventory.store.BatchResult.Outcome;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.kv.TxnResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One run of {@link EtcdInventory#upsertAll}: check every item's id, read what is stored (but for
 * items that require their node not to exist: their guards check that in etcd), validate each item
 * as it is planned (an invalid spec or a repeated id is refused on its own), skip what is
 * unchanged, pack the rest into transactions within etcd's limits, and fall back to one transaction
 * per item for a transaction that lost a race, so every item gets its own result. A unique value
 * (serial, MAC, management address) taken by an earlier item of the batch is refused, never
 * written; one held by a stored node is refused by the index guard in etcd. With a {@link
 * WriteFence}, every transaction also requires the writer's leadership, and a lost fence ends the
 * run with {@link FencedException}.
 */
final class BatchUpsert {

  /** Attempts of one item that keeps losing its race before it is reported as a conflict. */
  private static final int MAX_ATTEMPTS = 50;

  private static final RetryPolicy<Object> RACES = Retries.conflict(MAX_ATTEMPTS).build();

  private final KV kv;
  private final EtcdInventory.Options options;
  private final NodeWrites writes;
  private final Function<List<String>, List<NodeRecord>> reader;
  private final WriteFence fence;

  /**
   * The items' events, encoded once while they are equal: the events of a sync's creates differ
   * only by node, which is in their key, not their value.
   */
  private final LastEncoded events = new LastEncoded();

  BatchUpsert(
      KV kv,
      EtcdInventory.Options options,
      NodeWrites writes,
      Function<List<String>, List<NodeRecord>> reader,
      WriteFence fence) {
    this.kv = kv;
    this.options = options;
    this.writes = writes;
    this.reader = reader;
    this.fence = fence;
  }

  /** One item's planned write. */
  private record Planned(int index, TxnPlan plan, Outcome outcome) {}

  List<BatchResult> run(List<BatchItem> items) {
    BatchResult[] results = new BatchResult[items.size()];
    List<Integer> addressed = addressed(items, results);
    List<String> toRead = new ArrayList<>();
    for (int i : addressed) {
      if (!mustBeNew(items.get(i))) {
        toRead.add(items.get(i).id());
      }
    }
    List<NodeRecord> stored = toRead.isEmpty() ? List.of() : reader.apply(toRead);
    Map<String, String> claimed = new HashMap<>();
    Set<String> seen = new HashSet<>();
    int read = 0;
    List<Planned> chunk = new ArrayList<>();
    TxnPlan merged = null;
    Sent inFlight = null;
    for (int i : addressed) {
      BatchItem item = items.get(i);
      NodeRecord current = mustBeNew(item) ? NodeRecord.absent(item.id()) : stored.get(read++);
      if (!valid(i, item, seen, results)) {
        continue;
      }
      Planned p = plan(i, item, current, results, claimed);
      if (p == null) {
        continue;
      }
      if (merged != null && !merged.fits(p.plan())) {
        inFlight = send(inFlight, chunk, merged, items, results);
        chunk = new ArrayList<>();
        merged = null;
      }
      if (merged == null) {
        merged = new TxnPlan();
      }
      merged.merge(p.plan());
      chunk.add(p);
    }
    if (merged != null) {
      inFlight = send(inFlight, chunk, merged, items, results);
    }
    finish(inFlight, items, results);
    return Arrays.asList(results);
  }

  /** A chunk's transaction, sent and not yet answered. */
  private record Sent(
      List<Planned> members, TxnPlan merged, CompletableFuture<TxnResponse> answer) {}

  /**
   * Builds the transaction of {@code members} merged, waits for the chunk in flight, then sends it:
   * one transaction in flight at a time, in the order of the items, while the next chunk is planned
   * and built.
   */
  private Sent send(
      Sent inFlight,
      List<Planned> members,
      TxnPlan merged,
      List<BatchItem> items,
      BatchResult[] results) {
    // Any failure but the fence's sends every member to retryAlone, which reads back its own
    // guards: the chunk need not carry a read of each of its keys.
    Txn next = merged.withoutReadBack().prepare(kv);
    finish(inFlight, items, results);
    return new Sent(members, merged, next.commit());
  }

  /**
   * Whether {@code item} requires that its node does not exist. Such an item is not read first: its
   * transaction's guards (the spec and the first event absent, the unique values unclaimed) check
   * in etcd what the read would have, and a chunk that fails them is retried item by item, each
   * read.
   */
  private static boolean mustBeNew(BatchItem item) {
    return item.expectedRevision() == 0;
  }

  /**
   * The items whose id is valid and that have a spec, in order; the others get their INVALID
   * result. Their specs are validated as the items are planned ({@link #valid}), so the first
   * transaction does not wait for the validation of the whole batch.
   */
  private static List<Integer> addressed(List<BatchItem> items, BatchResult[] results) {
    List<Integer> addressed = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      BatchItem item = items.get(i);
      try {
        Ids.require("id", item.id());
        if (item.spec() == null) {
          throw new InvalidInputException("spec", "must be present");
        }
        addressed.add(i);
      } catch (InvalidInputException e) {
        results[i] = new BatchResult(item.id(), Outcome.INVALID, 0, e.getMessage());
      }
    }
    return addressed;
  }

  /**
   * Whether the spec of addressed item {@code i} is valid and its id not taken by an earlier valid
   * item ({@code seen}, which gets it); if not, records its INVALID result. With {@link #addressed}
   * the same checks in the same order as when every item was checked before the first write.
   */
  private static boolean valid(int i, BatchItem item, Set<String> seen, BatchResult[] results) {
    try {
      item.spec().validate();
      if (!seen.add(item.id())) {
        throw new InvalidInputException("id", "appears more than once in the batch");
      }
      return true;
    } catch (InvalidInputException e) {
      results[i] = new BatchResult(item.id(), Outcome.INVALID, 0, e.getMessage());
      return false;
    }
  }

  /**
   * Plans one item's write; {@code claimed} (null: no check) maps the index keys of the values
   * earlier items take to their node, and gets this item's.
   */
  private Planned plan(
      int index,
      BatchItem item,
      NodeRecord current,
      BatchResult[] results,
      Map<String, String> claimed) {
    String id = item.id();
    long expected = item.expectedRevision();
    if (expected != BatchItem.ANY && expected != current.specRevision()) {
      results[index] =
          new BatchResult(
              id,
              Outcome.CONFLICT,
              current.specRevision(),
              current.exists()
                  ? "node is at revision " + current.specRevision() + ", expected " + expected
                  : "node does not exist, expected revision " + expected);
      return null;
    }
    byte[] bytes = Codec.encode(item.spec());
    if (current.exists() && Arrays.equals(bytes, current.specBytes())) {
      results[index] = new BatchResult(id, Outcome.UNCHANGED, current.specRevision(), null);
      return null;
    }
    if (claimed != null) {
      List<String> keys = new ArrayList<>();
      for (UniqueField field : UniqueField.values()) {
        String value = field.of(item.spec());
        if (value == null || Objects.equals(value, field.of(current.spec()))) {
          continue;
        }
        String key = field.key(value);
        String holder = claimed.get(key);
        if (holder != null && !holder.equals(id)) {
          results[index] =
              new BatchResult(
                  id,
                  Outcome.DUPLICATE,
                  current.specRevision(),
                  new DuplicateValueException(field.field(), value, holder).getMessage()
                      + " (earlier in the batch)");
          return null;
        }
        keys.add(key);
      }
      keys.forEach(key -> claimed.put(key, id));
    }
    TxnPlan plan = new TxnPlan().fence(fence);
    writes.spec(plan, id, current.spec(), current.specRevision(), bytes, item.spec());
    writes.event(plan, id, current.lastEventSeq(), item.event(), events);
    return new Planned(index, plan, current.exists() ? Outcome.UPDATED : Outcome.CREATED);
  }

  /** Waits for the answer of {@code sent} (null: none) and records its members' results. */
  private void finish(Sent sent, List<BatchItem> items, BatchResult[] results) {
    if (sent == null) {
      return;
    }
    try {
      long revision = sent.merged().result(sent.answer(), options.timeout(), "a batch of nodes");
      for (Planned p : sent.members()) {
        results[p.index()] =
            new BatchResult(items.get(p.index()).id(), p.outcome(), revision, null);
      }
    } catch (ConflictException | DuplicateValueException e) {
      for (Planned p : sent.members()) {
        results[p.index()] = retryAlone(items.get(p.index()));
      }
    } catch (FencedException e) {
      throw e;
    } catch (InventoryException e) {
      for (Planned p : sent.members()) {
        results[p.index()] =
            new BatchResult(items.get(p.index()).id(), Outcome.FAILED, 0, e.getMessage());
      }
    }
  }

  /** Re-reads and writes one item in a transaction of its own, retrying lost races. */
  private BatchResult retryAlone(BatchItem item) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      BatchResult[] one = new BatchResult[1];
      NodeRecord current = reader.apply(List.of(item.id())).get(0);
      Planned p = plan(0, item, current, one, null);
      if (p == null) {
        return one[0];
      }
      try {
        long revision = p.plan().commit(kv, options.timeout(), "node " + item.id());
        return new BatchResult(item.id(), p.outcome(), revision, null);
      } catch (ConflictException e) {
        pause(attempt);
      } catch (DuplicateValueException e) {
        return new BatchResult(
            item.id(), Outcome.DUPLICATE, current.specRevision(), e.getMessage());
      } catch (FencedException e) {
        throw e;
      } catch (InventoryException e) {
        return new BatchResult(item.id(), Outcome.FAILED, 0, e.getMessage());
      }
    }
    return new BatchResult(item.id(), Outcome.CONFLICT, 0, "gave up after repeated conflicts");
  }

  private static void pause(int attempt) {
    try {
      Retries.pause(RACES, attempt + 1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException("interrupted while retrying", e);
    }
  }
}
