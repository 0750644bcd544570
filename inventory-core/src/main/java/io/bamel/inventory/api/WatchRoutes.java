package io.bamel.inventory.api;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/v1/watch?since={revision}}: a Server-Sent Events stream of node and pool changes
 * ({@code event: node|pool}, {@code id: revision-index}, {@code data:} the change as JSON), after
 * {@code since} (default: the cache's current revision) or after the {@code Last-Event-ID} a
 * reconnecting EventSource sends. 410 when that revision is no longer held. A comment is sent every
 * 15 s so that idle connections stay open and closed ones are noticed.
 */
final class WatchRoutes {

  private static final long HEARTBEAT_SECONDS = 15;

  private final ApiContext api;
  private final WatchHub hub;

  WatchRoutes(ApiContext api, WatchHub hub) {
    this.api = api;
    this.hub = hub;
  }

  void watch(Context ctx) {
    Map<String, String> query = ApiContext.query(ctx, Set.of("since"));
    api.requireSynced();
    String position = query.get("since");
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
    try {
      subscription = hub.subscribe(revision, index);
    } catch (WatchHub.Gone e) {
      throw Problems.gone(e.getMessage());
    }
    try {
      stream(ctx, subscription, revision);
    } finally {
      hub.unsubscribe(subscription);
    }
  }

  private void stream(Context ctx, WatchHub.Subscription subscription, long from) {
    ctx.status(200);
    ctx.res().setContentType("text/event-stream");
    ctx.res().setCharacterEncoding("utf-8");
    ctx.res().setHeader("Cache-Control", "no-cache");
    ctx.res().setHeader("X-Accel-Buffering", "no");
    try {
      OutputStream out = ctx.res().getOutputStream();
      write(out, ": watching changes after revision " + from + "\n\n");
      while (true) {
        Object next = subscription.queue.poll(HEARTBEAT_SECONDS, TimeUnit.SECONDS);
        if (next == WatchHub.STOP) {
          return;
        }
        if (next == null) {
          write(out, ": keep-alive\n\n");
          continue;
        }
        WatchEvent event = (WatchEvent) next;
        write(
            out,
            "id: " + event.id() + "\nevent: " + event.name() + "\ndata: " + event.json() + "\n\n");
      }
    } catch (IOException e) {
      // The client went away.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
