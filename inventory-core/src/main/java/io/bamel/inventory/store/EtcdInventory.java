package io.bamel.inventory.store;

import io.bamel.inventory.model.Ids;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The only writer of the inventory. Every write is one etcd transaction guarded by the mod revision
 * of what it replaces (compare-and-swap); a lost race raises {@link ConflictException}, and the
 * read-modify-write helpers retry it from a fresh read, never overwriting blindly. Controller
 * writes can be fenced by a leadership key ({@link WriteFence}).
 *
 * <p>Invariants kept in the same transaction as the change: the pool-membership index follows
 * {@code spec.pool}; an event is appended with the change it records, and each node keeps at most
 * {@link Options#eventLimit()} events; a node's unique values (serial, MAC address, management
 * address) hold index keys {@code /baremetal/index/...}, taken with a guard that no other node
 * holds them ({@link DuplicateValueException}). Ids are validated before they become keys.
 * Thread-safe; it does not own the jetcd client.
 */
public final class EtcdInventory {

  /** Tuning of an {@link EtcdInventory}. */
  public record Options(Duration timeout, int eventLimit, int pageSize) {

    /**
     * Timeout 10 s per call, 20 events per node (about 5 KB of history per node: a fleet of 100,000
     * keeps its histories in about 0.5 GB of etcd), pages of 500.
     */
    public static final Options DEFAULTS = new Options(Duration.ofSeconds(10), 20, 500);

    /** These options with another event bound. */
    public Options withEventLimit(int limit) {
      return new Options(timeout, limit, pageSize);
    }
  }

  /**
   * The expected revision that takes whatever is stored ({@link #deleteNode}, {@link
   * #putPoolConfig}, {@link #deletePool}).
   */
  public static final long ANY_REVISION = -1;

  private final KV kv;
  private final Options options;
  private final NodeWrites writes;

  /** A store over {@code client} with default options. */
  public EtcdInventory(Client client) {
    this(client, Options.DEFAULTS);
  }

  /** A store over {@code client}. */
  public EtcdInventory(Client client, Options options) {
    this.kv = client.getKVClient();
    this.options = options;
    this.writes = new NodeWrites(options.eventLimit());
  }

  /** The options in force. */
  public Options options() {
    return options;
  }

  // ---------------------------------------------------------------- nodes

  /**
   * Creates a node; fails if it exists.
   *
   * @return the spec's mod revision
   * @throws AlreadyExistsException when a node with this id exists
   */
  public long createNode(String id, NodeSpec spec, NodeEvent event) {
    Ids.require("id", id);
    spec.validate();
    TxnPlan plan = new TxnPlan();
    writes.spec(plan, id, null, 0, Codec.encode(spec), spec);
    writes.event(plan, id, 0, event);
    try {
      return plan.commit(kv, options.timeout(), "node " + id);
    } catch (ConflictException e) {
      throw new AlreadyExistsException("node " + id);
    }
  }

  /** The node, read from etcd (spec, status and readings at one revision). */
  public Optional<Node> getNode(String id) {
    NodeRecord record = read(id);
    return record.exists() ? Optional.of(record.toNode()) : Optional.empty();
  }

  /**
   * Replaces the spec if it is still at {@code expectedRevision}.
   *
   * @return the new mod revision (the old one if {@code spec} is what is stored)
   * @throws NotFoundException when the node does not exist
   * @throws ConflictException when the spec is no longer at {@code expectedRevision}
   */
  public long replaceSpec(String id, long expectedRevision, NodeSpec spec, NodeEvent event) {
    return editSpec(
        id,
        current -> {
          requireRevision("node " + id, current.specRevision(), expectedRevision);
          return new SpecEdit.Result(spec, event);
        });
  }

  /**
   * Reads the node once and writes what {@code edit} makes of it, if the spec is still at the
   * revision read: a read-modify-write in one read and one guarded transaction, where {@link
   * #getNode} followed by {@link #replaceSpec} reads the node twice. Nothing is written when {@code
   * edit} throws, or when the spec it returns is the stored one.
   *
   * @return the new mod revision (the one read if the spec is what is stored)
   * @throws NotFoundException when the node does not exist
   * @throws ConflictException when the spec, or the node's events, changed after the read
   */
  public long editSpec(String id, SpecEdit edit) {
    NodeRecord current = existing(id);
    SpecEdit.Result result = edit.apply(current.toNode());
    return writeSpec(current, result.spec(), result.event());
  }

  private long writeSpec(NodeRecord current, NodeSpec spec, NodeEvent event) {
    spec.validate();
    byte[] bytes = Codec.encode(spec);
    if (Arrays.equals(bytes, current.specBytes())) {
      return current.specRevision();
    }
    TxnPlan plan = new TxnPlan();
    writes.spec(plan, current.id(), current.spec(), current.specRevision(), bytes, spec);
    writes.event(plan, current.id(), current.lastEventSeq(), event);
    return plan.commit(kv, options.timeout(), "node " + current.id());
  }

  /**
   * Writes the status if it is still at {@code expectedRevision} (0: no status yet), fenced by
   * {@code fence} (null: unfenced). The node must exist.
   *
   * @return the new mod revision
   * @throws ConflictException when the status changed
   * @throws FencedException when the fence no longer holds
   * @throws NotFoundException when the node does not exist
   */
  public long putStatus(
      String id, long expectedRevision, NodeStatus status, NodeEvent event, WriteFence fence) {
    NodeRecord current = existing(id);
    requireRevision("status of node " + id, current.statusRevision(), expectedRevision);
    return writeStatus(current, status, event, fence);
  }

  /**
   * Writes the status of the node {@code cached} is a copy of, if the status is still at the
   * revision that copy carries ({@link Node#statusRevision()}, 0: none yet), fenced by {@code
   * fence} (null: unfenced), without reading the node first: for a writer that works from a copy
   * such as the {@link InventoryCache}'s. A stale copy loses the compare-and-swap and the caller
   * decides again from a newer one. Nothing is read unless {@code event} is set; then only the key
   * of the node's newest event (the cache holds no events), for the next sequence number. No write
   * happens when {@code status} is the copy's and there is no event.
   *
   * @return the new mod revision (the copy's when nothing was written)
   * @throws ConflictException when the status is no longer at the copy's revision, or an event was
   *     appended since the newest one was read
   * @throws FencedException when the fence no longer holds
   * @throws NotFoundException when the node does not exist
   */
  public long putStatus(Node cached, NodeStatus status, NodeEvent event, WriteFence fence) {
    String id = cached.id();
    if (event == null && status.equals(cached.status())) {
      return cached.statusRevision();
    }
    long lastSeq = event == null ? 0 : lastEventSeq(id);
    return statusPlan(id, cached.statusRevision(), Codec.encode(status), lastSeq, event, fence)
        .commit(kv, options.timeout(), "status of node " + id);
  }

  private long writeStatus(
      NodeRecord current, NodeStatus status, NodeEvent event, WriteFence fence) {
    byte[] bytes = Codec.encode(status);
    if (event == null && Arrays.equals(bytes, current.statusBytes())) {
      return current.statusRevision();
    }
    String id = current.id();
    return statusPlan(id, current.statusRevision(), bytes, current.lastEventSeq(), event, fence)
        .commit(kv, options.timeout(), "status of node " + id);
  }

  /** The status write of node {@code id}: guarded by its revision, with the event after lastSeq. */
  private TxnPlan statusPlan(
      String id, long revision, byte[] bytes, long lastSeq, NodeEvent event, WriteFence fence) {
    TxnPlan plan = new TxnPlan().fence(fence);
    plan.expectExists(Keys.nodeSpec(id));
    plan.expectModRevision(Keys.nodeStatus(id), revision);
    plan.put(Keys.nodeStatus(id), bytes);
    writes.event(plan, id, lastSeq, event);
    return plan;
  }

  /** The sequence number of node {@code id}'s newest event (0: none); reads one key, keys only. */
  private long lastEventSeq(String id) {
    GetResponse response =
        Etcd.await(
            kv.get(Bytes.of(Keys.nodeEvents(id)), NEWEST_EVENT),
            options.timeout(),
            "reading events of node " + id);
    return response.getKvs().isEmpty()
        ? 0
        : Keys.parse(Bytes.text(response.getKvs().get(0).getKey())).seq();
  }

  /** Stores the node's latest BMC readings (last writer wins: readings are measurements). */
  public long putReadings(String id, NodeReadings readings, WriteFence fence) {
    TxnPlan plan = new TxnPlan().fence(fence);
    plan.expectExists(Keys.nodeSpec(id));
    plan.put(Keys.nodeReadings(id), Codec.encode(readings));
    return plan.commit(kv, options.timeout(), "readings of node " + id);
  }

  /**
   * Deletes a node: spec, status, readings, events and pool membership, in one transaction.
   *
   * @param expectedRevision the spec revision the caller saw, or {@link #ANY_REVISION}
   * @return whether a node was deleted (false when there was none)
   * @throws ConflictException when the spec is no longer at {@code expectedRevision}
   */
  public boolean deleteNode(String id, long expectedRevision) {
    return deleteNode(id, expectedRevision, null);
  }

  /**
   * Deletes a node as {@link #deleteNode(String, long)} does, only while the writer still holds
   * {@code fence} (null: no fence): a controller's delete.
   *
   * @throws FencedException when the fence no longer holds (nothing is deleted)
   */
  public boolean deleteNode(String id, long expectedRevision, WriteFence fence) {
    NodeRecord current = read(id);
    if (!current.exists()) {
      return false;
    }
    if (expectedRevision != ANY_REVISION) {
      requireRevision("node " + id, current.specRevision(), expectedRevision);
    }
    TxnPlan plan = new TxnPlan().fence(fence);
    writes.spec(plan, id, current.spec(), current.specRevision(), null, null);
    plan.commit(kv, options.timeout(), "node " + id);
    return true;
  }

  /**
   * Appends {@code event} to node {@code id}'s history without changing its spec or status: a
   * record about the node that is no change of it (a sync item that collided with it). Nothing is
   * written when the newest event already has the same reason and message, so a condition that
   * every sync finds again is recorded once.
   *
   * @return whether the event was written
   * @throws NotFoundException when the node does not exist
   * @throws ConflictException when another event was appended meanwhile
   */
  public boolean appendEvent(String id, NodeEvent event) {
    NodeRecord current = existing(id);
    List<NodeEvent> events = events(id);
    if (!events.isEmpty()) {
      NodeEvent last = events.get(events.size() - 1);
      if (java.util.Objects.equals(last.reason(), event.reason())
          && java.util.Objects.equals(last.message(), event.message())) {
        return false;
      }
    }
    TxnPlan plan = new TxnPlan();
    writes.event(plan, id, current.lastEventSeq(), event);
    plan.commit(kv, options.timeout(), "node " + id);
    return true;
  }

  /** The node's events, oldest first. */
  public List<NodeEvent> events(String id) {
    GetResponse response =
        Etcd.await(
            kv.get(Bytes.of(Keys.nodeEvents(id)), GetOption.builder().isPrefix(true).build()),
            options.timeout(),
            "reading events of node " + id);
    List<NodeEvent> events = new ArrayList<>();
    for (KeyValue kv : response.getKvs()) {
      KeyRef ref = Keys.parse(Bytes.text(kv.getKey()));
      events.add(Codec.decode(kv.getValue().getBytes(), NodeEvent.class).withSeq(ref.seq()));
    }
    return events;
  }

  /**
   * One page of nodes in id order, read at {@code revision} (0: now; pass the page's revision on to
   * read the next page at the same revision).
   *
   * @param after the id to continue after (null: from the start)
   * @throws io.bamel.inventory.store.CompactedException when {@code revision} was compacted
   */
  public NodePage listNodes(String after, int limit, long revision) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1");
    }
    String from = after == null ? Keys.NODES : Keys.node(after) + "\u00ff";
    GetOption.Builder option =
        GetOption.builder()
            .withRange(Bytes.of(Keys.prefixEnd(Keys.NODES)))
            .withLimit(3L * limit + 3);
    if (revision > 0) {
      option.withRevision(revision);
    }
    GetResponse response =
        Etcd.await(kv.get(Bytes.of(from), option.build()), options.timeout(), "listing nodes");
    long readAt = revision > 0 ? revision : response.getHeader().getRevision();
    List<Node> nodes = NodeDecoder.group(response.getKvs());
    String next = null;
    if (response.isMore() && nodes.size() > limit) {
      nodes = nodes.subList(0, limit);
      next = nodes.get(limit - 1).id();
    } else if (response.isMore() && !nodes.isEmpty()) {
      next = nodes.get(nodes.size() - 1).id();
    }
    return new NodePage(List.copyOf(nodes), next, readAt);
  }

  /**
   * Upserts many nodes, in as few transactions as etcd's limits allow (128 operations, 1.5 MiB),
   * and reports one result per item, in order. Items whose spec equals the stored one are not
   * written. Items whose transaction lost a race are retried one by one.
   */
  public List<BatchResult> upsertAll(List<BatchItem> items) {
    return upsertAll(items, null);
  }

  /**
   * Upserts many nodes as {@link #upsertAll(List)} does, every transaction conditional on the
   * writer still holding {@code fence} (null: no fence): a controller's batch.
   *
   * @throws FencedException when the fence no longer holds; transactions committed before it stay,
   *     nothing after it is written
   */
  public List<BatchResult> upsertAll(List<BatchItem> items, WriteFence fence) {
    return new BatchUpsert(kv, options, writes, this::readSpecs, fence).run(items);
  }

  /**
   * Writes the unique-field index keys ({@code /baremetal/index/serial|mac|mgmt/...}) that are
   * missing for the stored nodes: for data written before the index existed, or by hand. Safe while
   * the API writes and idempotent (see {@link UniqueIndexRebuild}); every read is paged. A value
   * two stored nodes share keeps the node that comes first by id and is left for an operator to
   * resolve. Run it once at server start, before serving writes.
   *
   * @return the number of index keys written
   */
  public int rebuildUniqueIndex() {
    return new UniqueIndexRebuild(kv, new PagedNodes(this, options.pageSize()), options).run();
  }

  /**
   * {@link #rebuildUniqueIndex()} with the nodes taken from {@code cache} (synced: see {@link
   * InventoryCache#awaitSynced}) instead of read from etcd again: what a server that has just
   * synced its cache runs at start. The guards are the same (each key written only if absent and
   * the node's spec unchanged since the revision the cache shows), so a cache a little behind etcd
   * costs a retry, never a wrong key.
   *
   * @return the number of index keys written
   */
  public int rebuildUniqueIndex(InventoryCache cache) {
    if (!cache.synced()) {
      throw new IllegalStateException("the cache must be synced before the unique index pass");
    }
    Iterable<Node> nodes =
        () -> cache.sortedNodeIds().stream().map(cache::node).flatMap(Optional::stream).iterator();
    return new UniqueIndexRebuild(kv, nodes, options).run();
  }

  // ---------------------------------------------------------------- pools

  /**
   * Writes a pool's config.
   *
   * @param expectedRevision 0: create (fails if it exists); a revision: replace only that one;
   *     {@link #ANY_REVISION}: create or replace
   * @return the new mod revision
   */
  public long putPoolConfig(String pool, PoolConfig config, long expectedRevision) {
    Ids.require("pool", pool);
    config.validate();
    TxnPlan plan = new TxnPlan();
    if (expectedRevision != ANY_REVISION) {
      plan.expectModRevision(Keys.poolConfig(pool), expectedRevision);
    }
    plan.put(Keys.poolConfig(pool), Codec.encode(config));
    try {
      return plan.commit(kv, options.timeout(), "pool " + pool);
    } catch (ConflictException e) {
      if (expectedRevision == 0) {
        throw new AlreadyExistsException("pool " + pool);
      }
      throw e;
    }
  }

  /**
   * The names of every pool that has a config, a status, members or a demand history in etcd,
   * sorted, read now (keys only). For checks and tools; readers serve pools from the {@link
   * InventoryCache}.
   */
  public List<String> poolNames() {
    Set<String> names = new TreeSet<>();
    scan()
        .forEach(
            Keys.POOLS,
            0,
            true,
            "listing pools",
            key -> {
              KeyRef ref = Keys.parse(Bytes.text(key.getKey()));
              if (ref.pool() != null) {
                names.add(ref.pool());
              }
            });
    return List.copyOf(names);
  }

  /** The pool: config, status and members, read at one revision; empty when it has none. */
  public Optional<Pool> getPool(String pool) {
    Ids.require("pool", pool);
    TxnResponse response =
        Etcd.await(
            kv.txn()
                .Then(
                    Op.get(Bytes.of(Keys.poolConfig(pool)), GetOption.DEFAULT),
                    Op.get(Bytes.of(Keys.poolStatus(pool)), GetOption.DEFAULT))
                .commit(),
            options.timeout(),
            "reading pool " + pool);
    var gets = response.getGetResponses();
    KeyValue config = first(gets.get(0));
    KeyValue status = first(gets.get(1));
    Set<String> members = new HashSet<>();
    scan()
        .forEach(
            Keys.poolMembers(pool),
            response.getHeader().getRevision(),
            true,
            "reading members of pool " + pool,
            member -> members.add(Keys.parse(Bytes.text(member.getKey())).id()));
    if (config == null && status == null && members.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Pool(
            pool,
            config == null ? null : Codec.decode(config.getValue().getBytes(), PoolConfig.class),
            config == null ? 0 : config.getModRevision(),
            status == null ? null : Codec.decode(status.getValue().getBytes(), PoolStatus.class),
            status == null ? 0 : status.getModRevision(),
            members));
  }

  /**
   * Deletes a pool's config, status and demand history. Refused while nodes are members: move or
   * delete them first.
   *
   * @param expectedRevision the config revision the caller saw, or {@link #ANY_REVISION}
   * @return whether there was a config to delete
   * @throws ConflictException when the pool has members or the config changed
   */
  public boolean deletePool(String pool, long expectedRevision) {
    Optional<Pool> current = getPool(pool);
    if (current.isEmpty() || current.get().config() == null) {
      return false;
    }
    if (!current.get().members().isEmpty()) {
      throw new ConflictException(
          "pool " + pool + " still has " + current.get().members().size() + " members", 0);
    }
    TxnPlan plan = new TxnPlan();
    plan.expectModRevision(
        Keys.poolConfig(pool),
        expectedRevision == ANY_REVISION ? current.get().configRevision() : expectedRevision);
    plan.delete(Keys.poolConfig(pool));
    plan.delete(Keys.poolStatus(pool));
    plan.delete(Keys.poolHistory(pool));
    plan.commit(kv, options.timeout(), "pool " + pool);
    return true;
  }

  /** Writes a pool's status, fenced by {@code fence} (null: unfenced). */
  public long putPoolStatus(String pool, PoolStatus status, WriteFence fence) {
    TxnPlan plan = new TxnPlan().fence(fence);
    plan.put(Keys.poolStatus(pool), Codec.encode(status));
    return plan.commit(kv, options.timeout(), "status of pool " + pool);
  }

  /**
   * Writes a pool's demand history ({@link Keys#poolHistory}), fenced by {@code fence} (null:
   * unfenced) and only while the pool has a config, so that a write racing the pool's deletion
   * cannot leave a history behind. The value is the pool controller's; the store does not read it.
   *
   * @return the revision of the write
   * @throws NotFoundException when the pool has no config (deleted)
   * @throws FencedException when the writer no longer leads
   */
  public long putPoolHistory(String pool, byte[] history, WriteFence fence) {
    TxnPlan plan = new TxnPlan().fence(fence);
    plan.expectExists(Keys.poolConfig(pool));
    plan.put(Keys.poolHistory(pool), history);
    return plan.commit(kv, options.timeout(), "demand history of pool " + pool);
  }

  /** A pool's demand history as stored, read now; empty when there is none. */
  public Optional<byte[]> getPoolHistory(String pool) {
    String key = Keys.poolHistory(pool);
    GetResponse response =
        Etcd.await(
            kv.get(Bytes.of(key)), options.timeout(), "reading the demand history of pool " + pool);
    return response.getKvs().isEmpty()
        ? Optional.empty()
        : Optional.of(response.getKvs().get(0).getValue().getBytes());
  }

  /**
   * Writes one pool decision in one transaction: each node's desired power state (guarded by the
   * spec revision the decision was based on, with its event) and the pool's status, fenced by the
   * pool controller's leadership.
   *
   * @return the revision of the transaction
   * @throws ConflictException when a node's spec changed since the decision read it, or a node's
   *     power policy is no longer {@code pool}: decide again from fresh data
   * @throws FencedException when the writer no longer leads
   * @throws InventoryException when the decision does not fit in one transaction
   */
  public long applyPoolDecision(
      String pool, List<DesiredPowerChange> changes, PoolStatus status, WriteFence fence) {
    Ids.require("pool", pool);
    List<NodeRecord> current = readSpecs(changes.stream().map(DesiredPowerChange::id).toList());
    TxnPlan plan = new TxnPlan().fence(fence);
    for (int i = 0; i < changes.size(); i++) {
      DesiredPowerChange change = changes.get(i);
      NodeRecord record = current.get(i);
      if (!record.exists() || record.specRevision() != change.expectedRevision()) {
        throw new ConflictException(
            "node "
                + change.id()
                + " changed since the decision (revision "
                + record.specRevision()
                + ", expected "
                + change.expectedRevision()
                + ")",
            record.specRevision());
      }
      if (record.spec().effectivePowerPolicy() != io.bamel.inventory.model.PowerPolicy.POOL
          || !pool.equals(record.spec().pool())) {
        throw new ConflictException(
            "node " + change.id() + " is no longer managed by pool " + pool, record.specRevision());
      }
      NodeSpec next = record.spec().toBuilder().desiredPower(change.desiredPower()).build();
      writes.spec(
          plan, change.id(), record.spec(), record.specRevision(), Codec.encode(next), next);
      writes.event(plan, change.id(), record.lastEventSeq(), change.event());
    }
    plan.put(Keys.poolStatus(pool), Codec.encode(status));
    if (plan.operations() > TxnPlan.MAX_OPS || plan.bytes() > TxnPlan.MAX_BYTES) {
      throw new InventoryException(
          "a decision for " + changes.size() + " nodes does not fit in one etcd transaction");
    }
    return plan.commit(kv, options.timeout(), "decision of pool " + pool);
  }

  /** The current etcd revision. */
  public long currentRevision() {
    GetResponse response =
        Etcd.await(
            kv.get(Bytes.of(Keys.ROOT), GetOption.builder().withCountOnly(true).build()),
            options.timeout(),
            "reading the revision");
    return response.getHeader().getRevision();
  }

  // ---------------------------------------------------------------- reading for updates

  NodeRecord read(String id) {
    return readMany(List.of(id)).get(0);
  }

  /** The node, which must exist. */
  private NodeRecord existing(String id) {
    NodeRecord current = read(id);
    if (!current.exists()) {
      throw new NotFoundException("node " + id);
    }
    return current;
  }

  private static void requireRevision(String what, long actual, long expected) {
    if (actual != expected) {
      throw new ConflictException(
          what + " is at revision " + actual + ", expected " + expected, actual);
    }
  }

  /** Reads nodes in full: spec, status, readings and the newest event key. */
  List<NodeRecord> readMany(List<String> ids) {
    List<Op> gets = new ArrayList<>(4 * ids.size());
    for (String id : ids) {
      Ids.require("id", id);
      gets.add(Op.get(Bytes.of(Keys.nodeSpec(id)), GetOption.DEFAULT));
      gets.add(Op.get(Bytes.of(Keys.nodeStatus(id)), GetOption.DEFAULT));
      gets.add(Op.get(Bytes.of(Keys.nodeReadings(id)), GetOption.DEFAULT));
      gets.add(newestEvent(id));
    }
    List<GetResponse> results = multiGet(gets);
    List<NodeRecord> records = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      records.add(
          NodeDecoder.record(
              ids.get(i),
              first(results.get(4 * i)),
              first(results.get(4 * i + 1)),
              first(results.get(4 * i + 2)),
              first(results.get(4 * i + 3))));
    }
    return records;
  }

  /**
   * Reads what a batch upsert needs: the specs, then the newest event key of the nodes that exist
   * (a node without a spec has no events: they are deleted with it).
   */
  List<NodeRecord> readSpecs(List<String> ids) {
    List<Op> specGets = new ArrayList<>(ids.size());
    for (String id : ids) {
      Ids.require("id", id);
      specGets.add(Op.get(Bytes.of(Keys.nodeSpec(id)), GetOption.DEFAULT));
    }
    List<GetResponse> specs = multiGet(specGets);
    List<Integer> existing = new ArrayList<>();
    List<Op> eventGets = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      if (first(specs.get(i)) != null) {
        existing.add(i);
        eventGets.add(newestEvent(ids.get(i)));
      }
    }
    List<GetResponse> events = multiGet(eventGets);
    KeyValue[] newest = new KeyValue[ids.size()];
    for (int k = 0; k < existing.size(); k++) {
      newest[existing.get(k)] = first(events.get(k));
    }
    List<NodeRecord> records = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      records.add(NodeDecoder.record(ids.get(i), first(specs.get(i)), null, null, newest[i]));
    }
    return records;
  }

  /** Under a node's events prefix: the newest event's key only. */
  private static final GetOption NEWEST_EVENT =
      GetOption.builder()
          .isPrefix(true)
          .withSortField(GetOption.SortTarget.KEY)
          .withSortOrder(GetOption.SortOrder.DESCEND)
          .withLimit(1)
          .withKeysOnly(true)
          .build();

  private static Op newestEvent(String id) {
    return Op.get(Bytes.of(Keys.nodeEvents(id)), NEWEST_EVENT);
  }

  /** Runs many gets in read-only transactions of at most 128 operations, in order. */
  private List<GetResponse> multiGet(List<Op> gets) {
    List<GetResponse> results = new ArrayList<>(gets.size());
    for (int start = 0; start < gets.size(); start += TxnPlan.MAX_OPS) {
      List<Op> chunk = gets.subList(start, Math.min(gets.size(), start + TxnPlan.MAX_OPS));
      TxnResponse response =
          Etcd.await(
              kv.txn().Then(chunk.toArray(Op[]::new)).commit(), options.timeout(), "reading nodes");
      results.addAll(response.getGetResponses());
    }
    return results;
  }

  private PrefixScan scan() {
    return new PrefixScan(kv, options.pageSize(), options.timeout());
  }

  private static KeyValue first(GetResponse response) {
    return response.getKvs().isEmpty() ? null : response.getKvs().get(0);
  }
}
