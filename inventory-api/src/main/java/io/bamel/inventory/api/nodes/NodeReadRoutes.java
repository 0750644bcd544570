package io.bamel.inventory.api.nodes;

import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.ListingResponse;
import io.bamel.inventory.api.http.Preconditions;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.CompactedException;
import io.bamel.inventory.store.NodePage;
import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The node reads: {@code GET /api/v1/nodes} (filters, paging pinned to a revision), {@code GET
 * /api/v1/nodes/{id}}, its status and its events. The first page of a listing is served from one
 * consistent walk of the cache at the cache's revision (remembered per query and revision in a
 * {@link ListingMemo}); further pages are read from etcd at that same revision, so every page shows
 * one snapshot, and a compacted revision answers 410. Listings carry an ETag ({@code
 * "l<revision>-<crc of the query>"}), answer {@code If-None-Match} with 304 and are gzipped for
 * clients that accept it ({@link ListingResponse}).
 */
public final class NodeReadRoutes {

  private static final Set<String> LIST_PARAMS;

  static {
    Set<String> names = new HashSet<>(NodeFilter.PARAMETERS);
    names.add("limit");
    names.add("continue");
    LIST_PARAMS = Set.copyOf(names);
  }

  private final ApiContext api;
  private final ListingMemo memo = new ListingMemo();

  public NodeReadRoutes(ApiContext api) {
    this.api = api;
  }

  public void list(Context ctx) {
    Map<String, List<String>> query = ApiContext.queryValues(ctx, LIST_PARAMS, NodeFilter.LISTS);
    NodeFilter filter = NodeFilter.parseValues(query);
    int limit = limit(first(query, "limit"));
    String token = first(query, "continue");
    String key = filter.canonical() + "|" + limit;
    if (token == null) {
      firstPage(ctx, filter, limit, key);
      return;
    }
    ContinueToken from = ContinueToken.decode(token, filter);
    String etag = ListingResponse.etag(from.revision(), key + "|" + token);
    if (ListingResponse.notModified(ctx, etag)) {
      return;
    }
    List<Node> page = new ArrayList<>();
    String next = readFromEtcd(from.revision(), from.after(), filter, limit, page);
    byte[] body = encode(page, from.revision(), next, filter);
    ListingResponse.send(ctx, etag, memo.detached(from.revision(), body));
  }

  /**
   * The first page: from the memo when this query was built at the cache's revision, else from one
   * consistent walk of the cache ({@link CacheSnapshot}), else (the cache kept moving) from etcd at
   * the cache's revision.
   */
  private void firstPage(Context ctx, NodeFilter filter, int limit, String key) {
    api.requireSynced();
    long current = api.cache.revision();
    if (ListingResponse.notModified(ctx, ListingResponse.etag(current, key))) {
      return;
    }
    ListingMemo.Entry entry = memo.get(key, current);
    if (entry == null) {
      CacheSnapshot.Matching snapshot = CacheSnapshot.first(api.cache, filter, limit);
      long revision;
      List<Node> page;
      String next;
      if (snapshot != null) {
        revision = snapshot.revision();
        List<Node> matching = snapshot.nodes();
        page = matching.size() > limit ? matching.subList(0, limit) : matching;
        next = matching.size() > limit ? page.get(limit - 1).id() : null;
      } else {
        revision = current;
        page = new ArrayList<>();
        next = readFromEtcd(revision, null, filter, limit, page);
      }
      entry = memo.put(key, revision, encode(page, revision, next, filter));
    }
    String etag = ListingResponse.etag(entry.revision(), key);
    if (entry.revision() != current && ListingResponse.notModified(ctx, etag)) {
      return;
    }
    ListingResponse.send(ctx, etag, entry);
  }

  /** {@code {"items":[...],"revision":R[,"continue":"..."]}}, joining each node's cached JSON. */
  private byte[] encode(List<Node> page, long revision, String next, NodeFilter filter) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(page.size() * 600 + 64);
    out.writeBytes("{\"items\":[".getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < page.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.writeBytes(api.nodeJson.of(page.get(i)));
    }
    StringBuilder tail = new StringBuilder("],\"revision\":").append(revision);
    if (next != null) {
      tail.append(",\"continue\":\"")
          .append(new ContinueToken(revision, next, filter.canonical().hashCode()).encode())
          .append('"');
    }
    tail.append('}');
    out.writeBytes(tail.toString().getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  /**
   * Fills {@code page} from etcd at {@code revision}, after id {@code after} (null: from the
   * start); returns the id to continue after.
   */
  private String readFromEtcd(
      long revision, String after, NodeFilter filter, int limit, List<Node> page) {
    int chunk = Math.max(limit, 200);
    try {
      while (true) {
        NodePage read = api.store.listNodes(after, Math.min(chunk, 2_000), revision);
        List<Node> items = read.items();
        for (int i = 0; i < items.size(); i++) {
          if (filter.test(items.get(i))) {
            page.add(items.get(i));
            if (page.size() == limit) {
              boolean more = i < items.size() - 1 || read.next() != null;
              return more ? items.get(i).id() : null;
            }
          }
        }
        if (read.next() == null || items.isEmpty()) {
          return null;
        }
        after = read.next();
      }
    } catch (CompactedException e) {
      throw Problems.gone(
          "revision "
              + revision
              + " of this listing has been compacted; list again from the first page");
    }
  }

  private static String first(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null ? null : values.get(0);
  }

  private int limit(String text) {
    if (text == null) {
      return api.options.defaultLimit();
    }
    int max = api.options.maxLimit();
    if (!text.matches("[0-9]{1,9}")) {
      throw Problems.invalid("limit", "must be a whole number from 1 to " + max);
    }
    int limit = Integer.parseInt(text);
    if (limit < 1 || limit > max) {
      throw Problems.invalid("limit", "must be from 1 to " + max);
    }
    return limit;
  }

  public void get(Context ctx) {
    ApiContext.query(ctx, Set.of());
    Node node = existing(ctx);
    ctx.header("ETag", Preconditions.etag(node.specRevision()));
    ApiContext.answerBytes(ctx, 200, api.nodeJson.of(node));
  }

  public void status(Context ctx) {
    ApiContext.query(ctx, Set.of());
    Node node = existing(ctx);
    if (node.status() != null) {
      ctx.header("ETag", Preconditions.etag(node.statusRevision()));
    }
    ApiContext.answer(ctx, 200, node.statusOrInitial());
  }

  /** The node's events, oldest first, read from etcd (the cache does not hold histories). */
  public void events(Context ctx) {
    ApiContext.query(ctx, Set.of());
    Node node = existing(ctx);
    List<NodeEvent> events = api.store.events(node.id());
    ApiContext.answer(ctx, 200, Map.of("items", events));
  }

  private Node existing(Context ctx) {
    String id = ApiContext.id(ctx, "id");
    api.requireSynced();
    return api.cache.node(id).orElseThrow(() -> Problems.notFound("no node " + id));
  }
}
