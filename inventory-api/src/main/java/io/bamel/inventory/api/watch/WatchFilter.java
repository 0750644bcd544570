package io.bamel.inventory.api.watch;

import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Ids;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.Texts;
import io.bamel.inventory.store.InventoryChange;
import io.bamel.inventory.store.NodeChange;
import io.bamel.inventory.store.PoolChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which changes a watch client receives, parsed from {@code GET /api/v1/watch}'s query: {@code
 * kind} ({@code node}, {@code pool}; repeated or comma-separated; default both), {@code pool}
 * (repeated or comma-separated pool names: a node change whose node is in one of them before or
 * after the change, so a node leaving the pool is seen leaving, and the changes of those pools
 * themselves) and {@code skipReadings=true} (drop node changes that moved only the BMC readings:
 * the same spec and status revisions before and after). A test is a few set look-ups and
 * comparisons, whatever the fleet's size. Pure.
 */
public record WatchFilter(Set<String> kinds, Set<String> pools, boolean skipReadings) {

  /** The query parameters of a watch that are filters. */
  public static final List<String> PARAMETERS = List.of("kind", "pool", "skipReadings");

  /** The filters that take several values. */
  static final Set<String> LISTS = Set.of("kind", "pool");

  /** Every change. */
  static final WatchFilter ALL = new WatchFilter(Set.of(), Set.of(), false);

  private static final Set<String> KINDS = Set.of("node", "pool");

  /** Copies the sets. */
  public WatchFilter {
    kinds = Set.copyOf(kinds);
    pools = Set.copyOf(pools);
  }

  /**
   * Parses the filters among {@code query} (parameter to every value it was given).
   *
   * @throws ApiException 400 naming every invalid filter
   */
  static WatchFilter parse(Map<String, List<String>> query) {
    List<FieldError> errors = new ArrayList<>();
    Set<String> kinds = new TreeSet<>();
    for (String kind : items(errors, query, "kind")) {
      if (KINDS.contains(kind)) {
        kinds.add(kind);
      } else {
        errors.add(new FieldError("kind", "unknown kind " + Texts.quote(kind) + "; node or pool"));
      }
    }
    Set<String> pools = new TreeSet<>();
    for (String pool : items(errors, query, "pool")) {
      String problem = Ids.problem(pool);
      if (problem != null) {
        errors.add(new FieldError("pool", Texts.quote(pool) + ": " + problem));
      } else {
        pools.add(pool);
      }
    }
    List<String> skip = query.getOrDefault("skipReadings", List.of());
    boolean skipReadings = false;
    if (skip.size() > 1) {
      errors.add(new FieldError("skipReadings", "must be given once"));
    } else if (skip.size() == 1) {
      switch (skip.get(0)) {
        case "true" -> skipReadings = true;
        case "false" -> skipReadings = false;
        default -> errors.add(new FieldError("skipReadings", "must be true or false"));
      }
    }
    if (!errors.isEmpty()) {
      throw Problems.invalid("invalid watch filter", errors);
    }
    return new WatchFilter(kinds, pools, skipReadings);
  }

  private static List<String> items(
      List<FieldError> errors, Map<String, List<String>> query, String name) {
    List<String> out = new ArrayList<>();
    for (String value : query.getOrDefault(name, List.of())) {
      for (String item : value.split(",", -1)) {
        if (item.isEmpty()) {
          errors.add(
              new FieldError(name, "empty value (several values: a,b or repeat " + name + ")"));
          return List.of();
        }
        out.add(item);
      }
    }
    return out;
  }

  /** Whether the client receives {@code change}. */
  boolean test(InventoryChange change) {
    if (change instanceof NodeChange c) {
      if (!kinds.isEmpty() && !kinds.contains("node")) {
        return false;
      }
      if (!pools.isEmpty() && !inPools(c.previous()) && !inPools(c.current())) {
        return false;
      }
      return !skipReadings || !readingsOnly(c);
    }
    if (change instanceof PoolChange c) {
      return (kinds.isEmpty() || kinds.contains("pool"))
          && (pools.isEmpty() || pools.contains(c.name()));
    }
    return false;
  }

  private boolean inPools(Node node) {
    return node != null && node.spec().pool() != null && pools.contains(node.spec().pool());
  }

  /** A change of an existing node that kept its spec and status: only the readings moved. */
  static boolean readingsOnly(NodeChange c) {
    return c.previous() != null
        && c.current() != null
        && c.previous().specRevision() == c.current().specRevision()
        && c.previous().statusRevision() == c.current().statusRevision();
  }
}
