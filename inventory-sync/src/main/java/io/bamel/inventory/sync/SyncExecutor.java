package io.bamel.inventory.sync;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.PersonText;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.BatchResult;
import io.bamel.inventory.store.ConflictException;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.store.InventoryException;
import io.bamel.inventory.store.WriteFence;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Carries out a {@link SyncPlan}: the creates and updates in batched transactions guarded by the
 * revisions the plan was made from (a node changed meanwhile is reported as rejected, never
 * overwritten), then the deletes, each guarded the same way; every write records an event naming
 * the actor (a token's owner, or the DCIM source) and the request, at the time the sync began
 * writing. With a {@link WriteFence} (a leader's sync, such as the NetBox pull) every write also
 * requires the leadership, and losing it ends the run with {@link FencedException}. Unchanged nodes
 * are not written. Waits (bounded) until the cache shows the writes before answering. An identity
 * conflict ({@link SyncPlan#conflicts()}) writes nothing of the item; the node it collided with
 * gets a {@code sync-conflict} event (once per distinct conflict) and {@code
 * bamel_sync_conflicts_total{source}} counts it.
 */
public final class SyncExecutor {

  private final EtcdInventory store;
  private final InventoryCache cache;
  private final Clock clock;
  private final Duration readYourWrites;
  private final SyncConflicts conflicts;
  private final String source;

  /**
   * An executor writing through {@code store} and waiting for {@code cache}; conflicts uncounted.
   */
  public SyncExecutor(
      EtcdInventory store, InventoryCache cache, Clock clock, Duration readYourWrites) {
    this(store, cache, clock, readYourWrites, null, null);
  }

  /**
   * An executor writing through {@code store} and waiting for {@code cache}, counting identity
   * conflicts in {@code conflicts} (null: uncounted) as {@code source}.
   */
  public SyncExecutor(
      EtcdInventory store,
      InventoryCache cache,
      Clock clock,
      Duration readYourWrites,
      SyncConflicts conflicts,
      String source) {
    this.store = store;
    this.cache = cache;
    this.clock = clock;
    this.readYourWrites = readYourWrites;
    this.conflicts = conflicts;
    this.source = source;
  }

  /**
   * Writes {@code plan}, made at cache revision {@code planRevision}, for {@code actor} (the name
   * its events record) in request {@code requestId}.
   *
   * @param fence the leadership every write requires, or null
   * @throws FencedException when {@code fence} no longer holds
   */
  public SyncReport execute(
      SyncPlan plan, String actor, String requestId, long planRevision, WriteFence fence) {
    List<BatchItem> batch = new ArrayList<>();
    // One time for every event of the sync: the events of its creates are then equal, and the
    // store encodes them once.
    Instant now = clock.instant();
    for (SyncPlan.Action a : plan.actions()) {
      if (a.kind() == SyncPlan.Kind.CREATE || a.kind() == SyncPlan.Kind.UPDATE) {
        String control =
            PowerControlFields.eventNote(PowerControlFields.changed(a.before(), a.spec()));
        boolean create = a.kind() == SyncPlan.Kind.CREATE;
        NodeEvent event =
            NodeEvent.change(
                now,
                create ? "created" : "updated",
                (create ? "sync" : "sync: " + SpecRules.changeNote(a.before(), a.spec())) + control,
                actor,
                requestId);
        batch.add(new BatchItem(a.id(), a.spec(), a.revision(), event));
      }
    }
    Map<String, BatchResult> results = new HashMap<>();
    long revision = planRevision;
    if (!batch.isEmpty()) {
      for (BatchResult r : store.upsertAll(batch, fence)) {
        results.put(r.id(), r);
        revision = Math.max(revision, r.revision());
      }
    }
    List<SyncReport.Entry> created = new ArrayList<>();
    List<SyncReport.Entry> updated = new ArrayList<>();
    List<SyncReport.Entry> unchanged = new ArrayList<>();
    List<SyncReport.Entry> deleted = new ArrayList<>();
    List<SyncReport.Entry> rejected = new ArrayList<>();
    Set<String> done = new HashSet<>();
    for (SyncPlan.Action a : plan.actions()) {
      SyncReport.Entry entry = entry(a);
      switch (a.kind()) {
        case UNCHANGED -> unchanged.add(entry);
        case REJECT -> rejected.add(reject(a));
        case CREATE, UPDATE -> {
          BatchResult r = results.get(a.id());
          switch (r.outcome()) {
            case CREATED -> created.add(entry);
            case UPDATED -> updated.add(entry);
            case UNCHANGED -> unchanged.add(entry);
            case CONFLICT ->
                rejected.add(
                    new SyncReport.Entry(
                        a.item(), a.id(), "the node changed during the sync; sync again", null));
            case DUPLICATE, INVALID, FAILED ->
                rejected.add(
                    new SyncReport.Entry(
                        a.item(),
                        a.id(),
                        PersonText.or(r.message(), "the write failed; sync again"),
                        null));
          }
        }
        case DELETE -> {
          try {
            if (store.deleteNode(a.id(), a.revision(), fence) && done.add(a.id())) {
              deleted.add(entry);
            }
          } catch (ConflictException e) {
            rejected.add(
                new SyncReport.Entry(
                    null, a.id(), "not pruned: the node changed during the sync", null));
          }
        }
      }
    }
    List<SyncPlan.Action> collided = plan.conflicts();
    for (SyncPlan.Action a : collided) {
      if (recordConflict(a, now, actor, requestId)) {
        revision = Math.max(revision, store.currentRevision());
      }
    }
    if (conflicts != null) {
      conflicts.count(source, collided.size());
    }
    if (!deleted.isEmpty()) {
      revision = Math.max(revision, store.currentRevision());
    }
    try {
      cache.awaitRevision(revision, readYourWrites);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new SyncReport(false, revision, created, updated, unchanged, deleted, rejected);
  }

  /**
   * Records conflict {@code a} as an event on the node it collided with; whether one was written. A
   * node gone or changed meanwhile is left: the next sync finds the conflict again.
   */
  private boolean recordConflict(SyncPlan.Action a, Instant now, String actor, String requestId) {
    // No item position: the same conflict found in another order is the same event.
    String message =
        "sync refused "
            + a.reason().substring(SyncPlan.CONFLICT.length())
            + (a.id() == null ? "" : " (it would be node " + a.id() + ")");
    try {
      return store.appendEvent(
          a.conflict(), NodeEvent.change(now, "sync-conflict", message, actor, requestId));
    } catch (InventoryException e) {
      return false;
    }
  }

  /** What {@code plan} would do, as a report (a dry run), at {@code revision}. */
  public static SyncReport report(SyncPlan plan, long revision, boolean dryRun) {
    List<SyncReport.Entry> created = entries(plan.of(SyncPlan.Kind.CREATE));
    List<SyncReport.Entry> updated = entries(plan.of(SyncPlan.Kind.UPDATE));
    List<SyncReport.Entry> unchanged = entries(plan.of(SyncPlan.Kind.UNCHANGED));
    List<SyncReport.Entry> deleted = entries(plan.of(SyncPlan.Kind.DELETE));
    List<SyncReport.Entry> rejected =
        plan.of(SyncPlan.Kind.REJECT).stream().map(SyncExecutor::reject).toList();
    return new SyncReport(dryRun, revision, created, updated, unchanged, deleted, rejected);
  }

  private static List<SyncReport.Entry> entries(List<SyncPlan.Action> actions) {
    return actions.stream().map(SyncExecutor::entry).toList();
  }

  private static SyncReport.Entry entry(SyncPlan.Action a) {
    return new SyncReport.Entry(a.item() < 0 ? null : a.item(), a.id(), null, null);
  }

  private static SyncReport.Entry reject(SyncPlan.Action a) {
    return new SyncReport.Entry(a.item() < 0 ? null : a.item(), a.id(), a.reason(), a.errors());
  }
}
