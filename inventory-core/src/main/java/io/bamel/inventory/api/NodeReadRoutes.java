package io.bamel.inventory.api;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.CompactedException;
import io.bamel.inventory.store.NodePage;
import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The node reads: {@code GET /api/v1/nodes} (filters, paging pinned to a revision), {@code GET
 * /api/v1/nodes/{id}}, its status and its events. The first page of a listing is served from the
 * cache at the cache's revision; further pages are read from etcd at that same revision, so every
 * page shows one consistent snapshot, and a compacted revision answers 410.
 */
final class NodeReadRoutes {

  private static final Set<String> LIST_PARAMS;

  static {
    Set<String> names = new HashSet<>(NodeFilter.PARAMETERS);
    names.add("limit");
    names.add("continue");
    LIST_PARAMS = Set.copyOf(names);
  }

  private final ApiContext api;
  private final ListingMemo memo = new ListingMemo();

  NodeReadRoutes(ApiContext api) {
    this.api = api;
  }

  void list(Context ctx) {
    Map<String, String> query = ApiContext.query(ctx, LIST_PARAMS);
    NodeFilter filter = NodeFilter.parse(query);
    int limit = limit(query.get("limit"));
    String token = query.get("continue");
    List<Node> page;
    String next;
    long revision;
    String memoKey = filter.canonical() + "|" + limit;
    if (token == null) {
      api.requireSynced();
      revision = api.cache.revision();
      byte[] remembered = memo.get(memoKey, revision);
      if (remembered != null) {
        ApiContext.answerBytes(ctx, 200, remembered);
        return;
      }
      List<Node> matching = new ArrayList<>();
      for (Node node : api.cache.nodes()) {
        if (filter.test(node)) {
          matching.add(node);
        }
      }
      matching.sort(Comparator.comparing(Node::id));
      page = matching.size() > limit ? matching.subList(0, limit) : matching;
      next = matching.size() > limit ? page.get(limit - 1).id() : null;
    } else {
      ContinueToken from = ContinueToken.decode(token, filter);
      revision = from.revision();
      page = new ArrayList<>();
      next = readFromEtcd(from, filter, limit, page);
    }
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
    byte[] body = out.toByteArray();
    if (token == null && api.cache.revision() == revision) {
      memo.put(memoKey, revision, body);
    }
    ApiContext.answerBytes(ctx, 200, body);
  }

  /** Fills {@code page} from etcd at the token's revision; returns the id to continue after. */
  private String readFromEtcd(ContinueToken from, NodeFilter filter, int limit, List<Node> page) {
    String after = from.after();
    int chunk = Math.max(limit, 200);
    try {
      while (true) {
        NodePage read = api.store.listNodes(after, Math.min(chunk, 2_000), from.revision());
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
              + from.revision()
              + " of this listing has been compacted; list again from the first page");
    }
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

  void get(Context ctx) {
    ApiContext.query(ctx, Set.of());
    Node node = existing(ctx);
    ctx.header("ETag", Preconditions.etag(node.specRevision()));
    ApiContext.answerBytes(ctx, 200, api.nodeJson.of(node));
  }

  void status(Context ctx) {
    ApiContext.query(ctx, Set.of());
    Node node = existing(ctx);
    if (node.status() != null) {
      ctx.header("ETag", Preconditions.etag(node.statusRevision()));
    }
    ApiContext.answer(ctx, 200, node.statusOrInitial());
  }

  /** The node's events, oldest first, read from etcd (the cache does not hold histories). */
  void events(Context ctx) {
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
