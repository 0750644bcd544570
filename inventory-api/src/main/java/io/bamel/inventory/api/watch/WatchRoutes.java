package io.bamel.inventory.api.watch;

import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.security.Authentication;
import io.bamel.inventory.api.session.ConsoleSession;
import io.bamel.inventory.api.session.ConsoleSessions;
import io.bamel.inventory.store.CompactedException;
import io.bamel.inventory.store.InventoryChange;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/v1/watch?since={revision}}: a Server-Sent Events stream of node and pool changes
 * ({@code event: node|pool}, {@code id: revision-index}, {@code data:} the change as JSON), those
 * its filters accept ({@link WatchFilter}: {@code kind}, {@code pool}, {@code skipReadings}), after
 * {@code since} (default: the cache's current revision) or after the {@code Last-Event-ID} a
 * reconnecting EventSource sends. Changes the hub holds in memory are served from it; older ones
 * (after a restart, or evicted) are read from etcd's history ({@link WatchHistory}) and then the
 * hub takes over, so the ids continue without a gap or a repeat. 410 when etcd has compacted that
 * revision, when more changes than the hub's history size happened since (list again), or when
 * there is no history to read. A comment is sent every 15 s so that idle connections stay open and
 * closed ones are noticed. A stream the console opened with its session cookie ends (at the next
 * change or comment) once that session has ended.
 */
public final class WatchRoutes {

  private static final long HEARTBEAT_SECONDS = 15;

  private final ApiContext api;
  private final WatchHub hub;
  private final WatchHistory history;
  private final ConsoleSessions sessions;

  public WatchRoutes(ApiContext api, WatchHub hub, WatchHistory history, ConsoleSessions sessions) {
    this.api = api;
    this.hub = hub;
    this.history = history;
    this.sessions = sessions;
  }

  public void watch(Context ctx) {
    Set<String> allowed = new HashSet<>(WatchFilter.PARAMETERS);
    allowed.add("since");
    Map<String, List<String>> query = ApiContext.queryValues(ctx, allowed, WatchFilter.LISTS);
    WatchFilter filter = WatchFilter.parse(query);
    api.requireSynced();
    String position = query.containsKey("since") ? query.get("since").get(0) : null;
    if (position == null) {
      position = ctx.header("Last-Event-ID");
    }
    long revision;
    int index;
    if (position == null) {
      revision = api.cache.revision();
      index = Integer.MAX_VALUE;
    } else if (position.matches("[0-9]{1,18}")) {
      revision = Long.parseLong(position);
      index = Integer.MAX_VALUE;
    } else if (position.matches("[0-9]{1,18}-[0-9]{1,9}")) {
      int dash = position.indexOf('-');
      revision = Long.parseLong(position.substring(0, dash));
      index = Integer.parseInt(position.substring(dash + 1));
    } else {
      throw Problems.invalid("since", "must be a revision such as 42 (or an event id 42-3)");
    }
    WatchHub.Subscription subscription;
    List<WatchEvent> older = List.of();
    try {
      subscription = hub.subscribe(revision, index, filter);
    } catch (WatchHub.Gone e) {
      if (history == WatchHistory.NONE) {
        throw Problems.gone(e.getMessage());
      }
      WatchHub.Catchup catchup = hub.subscribeAfterFloor(filter);
      if (catchup == null) {
        throw Problems.unavailable("the watch history is starting; try again");
      }
      subscription = catchup.subscription();
      try {
        older = fromEtcd(revision, index, catchup.floor(), filter);
      } catch (RuntimeException failure) {
        hub.unsubscribe(subscription);
        throw failure;
      }
    }
    try {
      stream(ctx, older, subscription, revision, ctx.attribute(Authentication.SESSION));
    } finally {
      hub.unsubscribe(subscription);
    }
  }

  /**
   * The changes after position {@code (revision, index)} through {@code floor}, read from etcd's
   * history; 410 when etcd has compacted them or there are more than the hub would hold.
   */
  private List<WatchEvent> fromEtcd(long revision, int index, long floor, WatchFilter filter) {
    boolean partial = index != Integer.MAX_VALUE;
    long since = partial ? revision - 1 : revision;
    int max = api.options.watchHistory();
    List<InventoryChange> changes;
    try {
      changes = history.changes(since, floor, max);
    } catch (CompactedException e) {
      throw Problems.gone(
          "revision "
              + since
              + " has been compacted in etcd; list again and watch from the listing's revision");
    }
    if (changes.size() > max) {
      throw Problems.gone(
          "more than "
              + api.options.watchHistory()
              + " changes happened after revision "
              + since
              + "; list again and watch from the listing's revision");
    }
    List<WatchEvent> events = new ArrayList<>();
    for (WatchEvent e : WatchEvent.numbered(changes)) {
      if (e.after(revision, index) && e.revision() <= floor && filter.test(e.change())) {
        events.add(e);
      }
    }
    return events;
  }

  private void stream(
      Context ctx,
      List<WatchEvent> older,
      WatchHub.Subscription subscription,
      long from,
      ConsoleSession session) {
    ctx.status(200);
    ctx.res().setContentType("text/event-stream");
    ctx.res().setCharacterEncoding("utf-8");
    ctx.res().setHeader("Cache-Control", "no-cache");
    ctx.res().setHeader("X-Accel-Buffering", "no");
    try {
      OutputStream out = ctx.res().getOutputStream();
      write(out, ": watching changes after revision " + from + "\n\n");
      for (WatchEvent event : older) {
        send(out, event);
      }
      while (true) {
        Object next = subscription.queue.poll(HEARTBEAT_SECONDS, TimeUnit.SECONDS);
        if (next == WatchHub.STOP) {
          return;
        }
        if (session != null && !sessions.holds(session)) {
          // Signed out or expired: a console's stream ends with its session.
          return;
        }
        if (next == null) {
          write(out, ": keep-alive\n\n");
          continue;
        }
        send(out, (WatchEvent) next);
      }
    } catch (IOException e) {
      // The client went away.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void send(OutputStream out, WatchEvent event) throws IOException {
    write(
        out, "id: " + event.id() + "\nevent: " + event.name() + "\ndata: " + event.json() + "\n\n");
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
