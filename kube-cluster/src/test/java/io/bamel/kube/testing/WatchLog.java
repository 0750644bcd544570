package io.bamel.kube.testing;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP watches for the mock server, whose own watches need WebSockets (which its Vert.x 4 web layer
 * cannot open on the Vert.x 5 core the build pins). Every change to a node or a pod that passes
 * through {@link KubeApiServer} is logged with its resourceVersion (the CRUD mode's global
 * counter); a watch request is answered at once with the logged changes of its resource after the
 * requested resourceVersion, as newline-delimited watch events, after a short {@link #HOLD}; the
 * client then watches again from the last version it saw, as it does when a real API server ends a
 * watch at its timeout. A deletion is logged at the latest version and replayed to watches from
 * that version too (a repeated deletion is a no-op for an informer).
 */
final class WatchLog {

  /** How long an answer is held before it is sent (the watch "lasts" that long). */
  static final Duration HOLD = Duration.ofMillis(50);

  private record Change(long rv, String resource, String type, String json) {}

  private final KubernetesSerialization json;
  private final List<Change> changes = new CopyOnWriteArrayList<>();
  private final AtomicLong latest = new AtomicLong();
  private volatile boolean cut;

  WatchLog(KubernetesSerialization json) {
    this.json = json;
  }

  /** The resource ({@code nodes} or {@code pods}) a core/v1 path names, or null. */
  static String resource(String path) {
    String p = path.indexOf('?') < 0 ? path : path.substring(0, path.indexOf('?'));
    if (p.startsWith("/api/v1/nodes")) {
      return "nodes";
    }
    if (p.matches("/api/v1/(namespaces/[^/]+/)?pods(/[^/]+)?")) {
      return "pods";
    }
    return null;
  }

  /** Notes the resourceVersion of any object the server answered a write with. */
  void sawWrite(String body) {
    long rv = resourceVersion(body);
    latest.accumulateAndGet(rv, Math::max);
  }

  /** Logs an ADDED or MODIFIED {@code body} of {@code resource}. */
  void changed(String resource, String type, String body) {
    long rv = resourceVersion(body);
    latest.accumulateAndGet(rv, Math::max);
    changes.add(new Change(rv, resource, type, body));
  }

  /** Logs the deletion of {@code body} of {@code resource}. */
  void deleted(String resource, String body) {
    changes.add(new Change(latest.get(), resource, "DELETED", body));
  }

  /**
   * While {@code cut}, a watch is answered with no change, only a bookmark at the version it asked
   * from: the watch stays open but delivers nothing, so a watcher's view falls behind the server;
   * once the cut ends, the next watch from that version replays what it missed.
   */
  void cut(boolean cut) {
    this.cut = cut;
  }

  /** The answer to a watch request on {@code path}. */
  MockResponse watch(String path) {
    boolean cut = this.cut;
    String resource = resource(path);
    long from = 0;
    int q = path.indexOf('?');
    if (q >= 0) {
      for (String param : path.substring(q + 1).split("&")) {
        String decoded = URLDecoder.decode(param, StandardCharsets.UTF_8);
        if (decoded.startsWith("resourceVersion=") && decoded.length() > 16) {
          from = Long.parseLong(decoded.substring(16));
        }
      }
    }
    StringBuilder out = new StringBuilder();
    for (Change c : changes) {
      boolean after = c.type().equals("DELETED") ? c.rv() >= from : c.rv() > from;
      if (!cut && c.resource().equals(resource) && after) {
        out.append("{\"type\":\"")
            .append(c.type())
            .append("\",\"object\":")
            .append(c.json())
            .append("}\n");
      }
    }
    // a bookmark at the latest version: the client resumes from there, and (having received an
    // event) reconnects after its base interval rather than backing off
    out.append("{\"type\":\"BOOKMARK\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"")
        .append("nodes".equals(resource) ? "Node" : "Pod")
        .append("\",\"metadata\":{\"resourceVersion\":\"")
        .append(cut ? from : Math.max(from, latest.get()))
        .append("\"}}}\n");
    return new MockResponse()
        .setResponseCode(200)
        .setHeader("Content-Type", "application/json")
        .setBody(out.toString())
        .setBodyDelay(HOLD);
  }

  private long resourceVersion(String body) {
    try {
      Map<?, ?> fields = json.unmarshal(body, Map.class);
      Object meta = fields.get("metadata");
      if (meta instanceof Map<?, ?> m && m.get("resourceVersion") != null) {
        return Long.parseLong(String.valueOf(m.get("resourceVersion")));
      }
    } catch (RuntimeException e) {
      // not an object with a numeric resourceVersion
    }
    return 0;
  }
}
