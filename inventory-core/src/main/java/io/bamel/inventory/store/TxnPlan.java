package io.bamel.inventory.store;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One etcd transaction being put together: the compare-and-swap guards, the writes, and their size,
 * so that callers can split work within etcd's limits (128 operations and 1.5 MiB per request). On
 * failure the transaction reads back every guarded key, so the caller learns which guard failed: a
 * lost leadership ({@link FencedException}) or a changed value ({@link ConflictException}).
 */
final class TxnPlan {

  /** etcd's default --max-txn-ops. */
  static final int MAX_OPS = 128;

  /** Stay well under etcd's default --max-request-bytes of 1.5 MiB. */
  static final int MAX_BYTES = 1_200_000;

  private static final int OP_OVERHEAD = 16;

  private static final GetOption KEYS_ONLY = GetOption.builder().withKeysOnly(true).build();

  private final Map<String, Long> modRevisions = new LinkedHashMap<>();
  private final Map<String, Long> createRevisions = new LinkedHashMap<>();
  private final List<String> existing = new ArrayList<>();
  private final Map<String, Claim> claims = new LinkedHashMap<>();
  private final Set<String> indexKeys = new HashSet<>();
  private final List<Op> ops = new ArrayList<>();
  private WriteFence fence;
  private boolean readBack = true;
  private int bytes;

  /** Requires {@code key}'s mod revision to be {@code revision} (0: the key must not exist). */
  TxnPlan expectModRevision(String key, long revision) {
    modRevisions.put(key, revision);
    bytes += key.length() + OP_OVERHEAD;
    return this;
  }

  /** Requires {@code key} not to exist (for keys that must be new, such as events). */
  TxnPlan expectAbsent(String key) {
    createRevisions.put(key, 0L);
    bytes += key.length() + OP_OVERHEAD;
    return this;
  }

  /** Requires {@code key} to exist. */
  TxnPlan expectExists(String key) {
    existing.add(key);
    bytes += key.length() + OP_OVERHEAD;
    return this;
  }

  /** A unique value's index key taken by a node. */
  private record Claim(String field, String value) {}

  /**
   * Takes the index key {@code key} of unique {@code field} {@code value} for node {@code id}:
   * requires the key not to exist (a failure names its holder: {@link DuplicateValueException}) and
   * puts the node id there.
   */
  TxnPlan claim(String key, String field, String value, String id) {
    claims.put(key, new Claim(field, value));
    indexKeys.add(key);
    bytes += key.length() + OP_OVERHEAD;
    return put(key, id.getBytes(StandardCharsets.UTF_8));
  }

  /** Deletes the index key {@code key} of a value the node no longer has. */
  TxnPlan release(String key) {
    indexKeys.add(key);
    return delete(key);
  }

  /**
   * On failure, reads back only the fence, not every guarded key: for a merged chunk whose caller
   * retries each member alone on any failure (each retry reads back its own guards), so that the
   * chunk's request does not carry a read of every key it guards. A failure then names the lost
   * fence ({@link FencedException}) or is a {@link ConflictException} naming no key.
   */
  TxnPlan withoutReadBack() {
    this.readBack = false;
    return this;
  }

  /** Requires the writer to still hold {@code fence} (null: no fence). */
  TxnPlan fence(WriteFence fence) {
    this.fence = fence;
    return this;
  }

  TxnPlan put(String key, byte[] value) {
    ops.add(Op.put(Bytes.of(key), Bytes.of(value), PutOption.DEFAULT));
    bytes += key.length() + value.length + OP_OVERHEAD;
    return this;
  }

  TxnPlan delete(String key) {
    ops.add(Op.delete(Bytes.of(key), DeleteOption.DEFAULT));
    bytes += key.length() + OP_OVERHEAD;
    return this;
  }

  /** Deletes every key from {@code from} (inclusive) to {@code to} (exclusive). */
  TxnPlan deleteRange(String from, String to) {
    ops.add(Op.delete(Bytes.of(from), DeleteOption.builder().withRange(Bytes.of(to)).build()));
    bytes += from.length() + to.length() + OP_OVERHEAD;
    return this;
  }

  /** Deletes every key starting with {@code prefix}. */
  TxnPlan deletePrefix(String prefix) {
    return deleteRange(prefix, Keys.prefixEnd(prefix));
  }

  int operations() {
    return Math.max(ops.size(), compares());
  }

  /** How many unique-value index keys this plan takes. */
  int claimCount() {
    return claims.size();
  }

  int compares() {
    return modRevisions.size()
        + createRevisions.size()
        + existing.size()
        + claims.size()
        + (fence == null ? 0 : 1);
  }

  int bytes() {
    return bytes;
  }

  boolean isEmpty() {
    return ops.isEmpty();
  }

  /** Plans {@code from} (inclusive) to {@code to} (exclusive) of a list, merged into one. */
  record Chunk(int from, int to, TxnPlan merged) {}

  /**
   * Packs {@code plans}, in order, into consecutive chunks, each as large as {@link #fits} allows
   * (a plan too large to share a transaction gets one of its own).
   */
  static List<Chunk> pack(List<TxnPlan> plans) {
    List<Chunk> chunks = new ArrayList<>();
    int start = 0;
    while (start < plans.size()) {
      TxnPlan merged = new TxnPlan();
      int end = start;
      while (end < plans.size() && (end == start || merged.fits(plans.get(end)))) {
        merged.merge(plans.get(end));
        end++;
      }
      chunks.add(new Chunk(start, end, merged));
      start = end;
    }
    return chunks;
  }

  /**
   * Whether {@code other} can be merged into this plan within etcd's limits, and touches none of
   * the index keys this plan touches (etcd refuses a transaction that writes one key twice, and two
   * nodes taking one value must be decided one after the other).
   */
  boolean fits(TxnPlan other) {
    return Collections.disjoint(indexKeys, other.indexKeys)
        && ops.size() + other.ops.size() <= MAX_OPS
        && compares() + other.compares() <= MAX_OPS
        && bytes + other.bytes <= MAX_BYTES;
  }

  /** Adds {@code other}'s guards and writes to this plan. */
  void merge(TxnPlan other) {
    modRevisions.putAll(other.modRevisions);
    createRevisions.putAll(other.createRevisions);
    existing.addAll(other.existing);
    claims.putAll(other.claims);
    indexKeys.addAll(other.indexKeys);
    ops.addAll(other.ops);
    bytes += other.bytes;
    if (other.fence != null) {
      fence = other.fence;
    }
  }

  /**
   * Commits the plan and returns the revision it was written at.
   *
   * @throws FencedException when the fence no longer holds
   * @throws ConflictException when a guarded key changed; {@code what} names the value
   * @throws DuplicateValueException when a claimed unique value is held by another node
   */
  long commit(KV kv, Duration timeout, String what) {
    return result(send(kv), timeout, what);
  }

  /**
   * Sends the transaction without waiting for its answer; {@link #result} waits for it, so that the
   * caller can prepare the next transaction meanwhile.
   */
  CompletableFuture<TxnResponse> send(KV kv) {
    return prepare(kv).commit();
  }

  /**
   * The transaction built (its guards, writes and failure reads converted for jetcd) but not sent:
   * {@code commit()} sends it. So that a caller waiting for an earlier transaction can build the
   * next one first, and send it as soon as the earlier one is answered.
   */
  Txn prepare(KV kv) {
    List<Cmp> cmps = new ArrayList<>();
    if (fence != null) {
      cmps.add(
          new Cmp(
              Bytes.of(fence.key()),
              Cmp.Op.EQUAL,
              CmpTarget.createRevision(fence.createRevision())));
    }
    modRevisions.forEach(
        (key, rev) -> cmps.add(new Cmp(Bytes.of(key), Cmp.Op.EQUAL, CmpTarget.modRevision(rev))));
    createRevisions.forEach(
        (key, rev) ->
            cmps.add(new Cmp(Bytes.of(key), Cmp.Op.EQUAL, CmpTarget.createRevision(rev))));
    for (String key : existing) {
      cmps.add(new Cmp(Bytes.of(key), Cmp.Op.GREATER, CmpTarget.version(0)));
    }
    for (String key : claims.keySet()) {
      cmps.add(new Cmp(Bytes.of(key), Cmp.Op.EQUAL, CmpTarget.createRevision(0)));
    }
    List<Op> readBack = new ArrayList<>();
    for (String key : readBackKeys()) {
      // A claimed key's value names the node holding it.
      readBack.add(Op.get(Bytes.of(key), claims.containsKey(key) ? GetOption.DEFAULT : KEYS_ONLY));
    }
    return kv.txn()
        .If(cmps.toArray(Cmp[]::new))
        .Then(ops.toArray(Op[]::new))
        .Else(readBack.toArray(Op[]::new));
  }

  /**
   * Waits for the answer of this plan's transaction, {@code sent} by {@link #send}, and returns the
   * revision it was written at.
   *
   * @throws FencedException when the fence no longer holds
   * @throws ConflictException when a guarded key changed; {@code what} names the value
   * @throws DuplicateValueException when a claimed unique value is held by another node
   */
  long result(CompletableFuture<TxnResponse> sent, Duration timeout, String what) {
    TxnResponse response = Etcd.await(sent, timeout, "writing " + what);
    if (response.isSucceeded()) {
      return response.getHeader().getRevision();
    }
    throw failure(response, what);
  }

  /**
   * The keys the transaction's failure branch reads, in the order {@link #failure} reads them: the
   * fence, then (unless {@link #withoutReadBack}) every guarded key; the fence alone when they
   * would pass etcd's operation limit.
   */
  List<String> readBackKeys() {
    List<String> keys = new ArrayList<>();
    if (fence != null) {
      keys.add(fence.key());
    }
    if (readBack && compares() <= MAX_OPS) {
      keys.addAll(modRevisions.keySet());
      keys.addAll(createRevisions.keySet());
      keys.addAll(existing);
      keys.addAll(claims.keySet());
    }
    return keys;
  }

  private InventoryException failure(TxnResponse response, String what) {
    var gets = response.getGetResponses();
    int i = 0;
    if (fence != null) {
      var kvs = gets.isEmpty() ? List.<io.etcd.jetcd.KeyValue>of() : gets.get(0).getKvs();
      if (kvs.isEmpty() || kvs.get(0).getCreateRevision() != fence.createRevision()) {
        return new FencedException(fence.key());
      }
      i = 1;
    }
    for (Map.Entry<String, Long> e : modRevisions.entrySet()) {
      if (i < gets.size()) {
        var kvs = gets.get(i).getKvs();
        long current = kvs.isEmpty() ? 0 : kvs.get(0).getModRevision();
        if (current != e.getValue()) {
          return new ConflictException(
              what
                  + " changed: "
                  + e.getKey()
                  + " is at revision "
                  + current
                  + ", expected "
                  + e.getValue(),
              current);
        }
      }
      i++;
    }
    for (Map.Entry<String, Long> e : createRevisions.entrySet()) {
      if (i < gets.size() && !gets.get(i).getKvs().isEmpty()) {
        return new ConflictException(what + " changed: " + e.getKey() + " already exists", 0);
      }
      i++;
    }
    for (String key : existing) {
      if (i < gets.size() && gets.get(i).getKvs().isEmpty()) {
        return new NotFoundException(key);
      }
      i++;
    }
    for (Claim claim : claims.values()) {
      if (i < gets.size() && !gets.get(i).getKvs().isEmpty()) {
        String holder = Bytes.text(gets.get(i).getKvs().get(0).getValue());
        return new DuplicateValueException(claim.field(), claim.value(), holder);
      }
      i++;
    }
    return new ConflictException(what + " changed concurrently", 0);
  }
}
