package io.bamel.inventory.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.BatchResult;
import io.bamel.inventory.store.ConflictException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v1/sync}: a DCIM sync. Reads the set (bamel records, or NetBox devices with
 * {@code format=netbox}), plans it against the cache once the cache has caught up with etcd ({@link
 * SyncPlanner}; without scope bmc, items that set or change power-control fields are rejected), and
 * unless {@code dryRun=true} writes the creates and updates in batched transactions guarded by the
 * revisions it planned from (a node changed meanwhile is reported as rejected, never overwritten)
 * and deletes the pruned nodes. Unchanged nodes are not written, so sending the same set twice
 * leaves the etcd revision where it was.
 */
final class SyncRoutes {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SyncRoutes.class);

  private static final Set<String> PARAMS =
      Set.of("format", "dryRun", "prune", "pool", "site", "rack", "labels");

  private final ApiContext api;

  SyncRoutes(ApiContext api) {
    this.api = api;
  }

  void sync(io.javalin.http.Context ctx) {
    Map<String, String> query = ApiContext.query(ctx, PARAMS);
    boolean dryRun = ApiContext.flag(query, "dryRun");
    boolean prune = ApiContext.flag(query, "prune");
    String format = query.getOrDefault("format", "bamel");
    if (!format.equals("bamel") && !format.equals("netbox")) {
      throw Problems.invalid("format", "must be bamel or netbox");
    }
    Map<String, String> scopeQuery = new HashMap<>();
    for (String name : List.of("pool", "site", "rack", "labels")) {
      if (query.containsKey(name)) {
        scopeQuery.put(name, query.get(name));
      }
    }
    NodeFilter scope = NodeFilter.parse(scopeQuery);
    if (prune && scope.isEmpty()) {
      throw Problems.invalid(
          "prune", "needs a scope (pool, site, rack or labels) naming the nodes the set covers");
    }
    if (!scope.isEmpty() && !prune) {
      throw Problems.invalid("prune", "a scope is only used with prune=true");
    }
    long t0 = System.nanoTime();
    JsonNode body = api.json(ctx, Bodies.JSON);
    List<SyncItem> items =
        format.equals("netbox") ? NetBoxDevices.read(body) : BamelRecords.read(body);
    long t1 = System.nanoTime();
    api.requireSynced();
    api.awaitCache(api.store.currentRevision());
    long t2 = System.nanoTime();
    long planRevision = api.cache.revision();
    Caller caller = Caller.of(ctx);
    SyncPlanner.Rules rules =
        new SyncPlanner.Rules(caller.principal(), api.options.powerOffCommands());
    SyncPlan plan = SyncPlanner.plan(items, api.cache.nodes(), scope, prune, rules);
    long t3 = System.nanoTime();
    SyncReport report =
        dryRun ? report(plan, planRevision, true) : execute(plan, caller, planRevision);
    long t4 = System.nanoTime();
    ApiContext.answer(ctx, 200, report);
    LOG.info(
        "sync of {} items{}: {} created, {} updated, {} unchanged, {} deleted, {} rejected;"
            + " read {} ms, cache catch-up {} ms, plan {} ms, write and read-your-writes {} ms",
        items.size(),
        dryRun ? " (dry run)" : "",
        report.created().size(),
        report.updated().size(),
        report.unchanged().size(),
        report.deleted().size(),
        report.rejected().size(),
        (t1 - t0) / 1_000_000,
        (t2 - t1) / 1_000_000,
        (t3 - t2) / 1_000_000,
        (t4 - t3) / 1_000_000);
  }

  private SyncReport execute(SyncPlan plan, Caller caller, long planRevision) {
    List<SyncPlan.Action> writes = new ArrayList<>();
    List<BatchItem> batch = new ArrayList<>();
    for (SyncPlan.Action a : plan.actions()) {
      if (a.kind() == SyncPlan.Kind.CREATE || a.kind() == SyncPlan.Kind.UPDATE) {
        String control =
            PowerControlFields.eventNote(PowerControlFields.changed(a.before(), a.spec()));
        NodeEvent event =
            caller.event(
                api.clock(),
                a.kind() == SyncPlan.Kind.CREATE ? "created" : "updated",
                (a.kind() == SyncPlan.Kind.CREATE
                        ? "sync"
                        : "sync: " + NodeEditRoutes.changes(a.before(), a.spec()))
                    + control);
        batch.add(new BatchItem(a.id(), a.spec(), a.revision(), event));
        writes.add(a);
      }
    }
    Map<String, BatchResult> results = new HashMap<>();
    long revision = planRevision;
    if (!batch.isEmpty()) {
      for (BatchResult r : api.store.upsertAll(batch)) {
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
      SyncReport.Entry entry =
          new SyncReport.Entry(a.item() < 0 ? null : a.item(), a.id(), null, null);
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
            if (api.store.deleteNode(a.id(), a.revision()) && done.add(a.id())) {
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
    if (!deleted.isEmpty()) {
      revision = Math.max(revision, api.store.currentRevision());
    }
    api.awaitCache(revision);
    return new SyncReport(false, revision, created, updated, unchanged, deleted, rejected);
  }

  private static SyncReport report(SyncPlan plan, long revision, boolean dryRun) {
    List<SyncReport.Entry> created = entries(plan.of(SyncPlan.Kind.CREATE));
    List<SyncReport.Entry> updated = entries(plan.of(SyncPlan.Kind.UPDATE));
    List<SyncReport.Entry> unchanged = entries(plan.of(SyncPlan.Kind.UNCHANGED));
    List<SyncReport.Entry> deleted = entries(plan.of(SyncPlan.Kind.DELETE));
    List<SyncReport.Entry> rejected =
        plan.of(SyncPlan.Kind.REJECT).stream().map(SyncRoutes::reject).toList();
    return new SyncReport(dryRun, revision, created, updated, unchanged, deleted, rejected);
  }

  private static List<SyncReport.Entry> entries(List<SyncPlan.Action> actions) {
    return actions.stream()
        .map(a -> new SyncReport.Entry(a.item() < 0 ? null : a.item(), a.id(), null, null))
        .toList();
  }

  private static SyncReport.Entry reject(SyncPlan.Action a) {
    return new SyncReport.Entry(a.item() < 0 ? null : a.item(), a.id(), a.reason(), a.errors());
  }
}
