package io.bamel.inventory.api.sync;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.Bodies;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.nodes.NodeFilter;
import io.bamel.inventory.api.security.Access;
import io.bamel.inventory.api.security.Caller;
import io.bamel.inventory.sync.SyncConflicts;
import io.bamel.inventory.sync.SyncExecutor;
import io.bamel.inventory.sync.SyncFormat;
import io.bamel.inventory.sync.SyncFormats;
import io.bamel.inventory.sync.SyncInputException;
import io.bamel.inventory.sync.SyncItem;
import io.bamel.inventory.sync.SyncPlan;
import io.bamel.inventory.sync.SyncPlanner;
import io.bamel.inventory.sync.SyncReport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v1/sync}: a DCIM sync. Reads the set (bamel records, or NetBox devices with
 * {@code format=netbox}), plans it against the cache once the cache has caught up with etcd ({@link
 * SyncPlanner}; without scope bmc, items that set or change power-control fields are rejected), and
 * unless {@code dryRun=true} writes it ({@link SyncExecutor}): creates and updates in batched
 * transactions guarded by the revisions it planned from (a node changed meanwhile is reported as
 * rejected, never overwritten), then the pruned nodes' deletes. Unchanged nodes are not written, so
 * sending the same set twice leaves the etcd revision where it was. A NetBox list that is one page
 * of several ({@code next} or {@code previous} set, or {@code count} above the results) is refused
 * for a prune, dry run or not, with 409: pruning from a partial list would delete the devices of
 * the other pages.
 */
public final class SyncRoutes {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SyncRoutes.class);

  private static final Set<String> PARAMS =
      Set.of("format", "dryRun", "prune", "pool", "site", "rack", "labels");

  /** The formats on the class path: bamel's own, NetBox's, any other module's. */
  private static final SyncFormats FORMATS = SyncFormats.load(SyncRoutes.class.getClassLoader());

  private final ApiContext api;
  private final SyncExecutor executor;

  public SyncRoutes(ApiContext api, SyncConflicts conflicts) {
    this.api = api;
    this.executor =
        new SyncExecutor(
            api.store, api.cache, api.clock(), api.options.readYourWrites(), conflicts, "api");
  }

  /**
   * The body's items. The JSON tree, several times the body's size, is not referenced once this
   * returns, so the collections during the writes do not copy it.
   */
  private List<SyncItem> items(io.javalin.http.Context ctx, SyncFormat format, boolean prune) {
    JsonNode body = api.json(ctx, Bodies.JSON);
    try {
      if (prune) {
        java.util.Optional<String> partial = format.partial(body);
        if (partial.isPresent()) {
          throw Problems.conflict(
              "prune refused: "
                  + partial.get()
                  + "; a prune needs every device of the scope, so send the whole list (every"
                  + " page), or let bamel pull NetBox itself (netbox.url, see docs/dcim.md)");
        }
      }
      return format.parse(body);
    } catch (SyncInputException e) {
      throw Problems.invalid(e.field(), e.getMessage());
    }
  }

  public void sync(io.javalin.http.Context ctx) {
    Map<String, String> query = ApiContext.query(ctx, PARAMS);
    boolean dryRun = ApiContext.flag(query, "dryRun");
    boolean prune = ApiContext.flag(query, "prune");
    SyncFormat format =
        FORMATS
            .find(query.getOrDefault("format", BamelFormat.NAME))
            .orElseThrow(
                () ->
                    Problems.invalid("format", "must be " + String.join(" or ", FORMATS.names())));
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
    List<SyncItem> items = items(ctx, format, prune);
    long t1 = System.nanoTime();
    api.requireSynced();
    api.awaitCache(api.store.currentRevision());
    long t2 = System.nanoTime();
    long planRevision = api.cache.revision();
    Caller caller = Caller.of(ctx);
    SyncPlanner.Rules rules =
        new SyncPlanner.Rules(
            caller.principal().name(),
            Access.BMC.grantedBy(caller.principal().scope()),
            api.options.powerOffCommands());
    SyncPlan plan = SyncPlanner.plan(items, SyncPlanner.Current.of(api.cache), scope, prune, rules);
    long t3 = System.nanoTime();
    SyncReport report =
        dryRun
            ? SyncExecutor.report(plan, planRevision, true)
            : executor.execute(
                plan, caller.principal().name(), caller.requestId(), planRevision, null);
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
}
