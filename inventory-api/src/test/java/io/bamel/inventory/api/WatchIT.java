package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.testing.EtcdExtension;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class WatchIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  /** One received SSE event. */
  record Sse(String id, String event, JsonNode data) {}

  /** Reads a stream's events into a queue on a daemon thread; closes the stream when closed. */
  static final class Stream implements AutoCloseable {
    final BlockingQueue<Sse> events = new LinkedBlockingQueue<>();
    final int status;
    private final InputStream body;

    Stream(ApiFixture f, String query, Map<String, String> headers) throws Exception {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(f.base + "/api/v1/watch" + query))
              .header("Authorization", "Bearer " + ApiFixture.READ);
      headers.forEach(b::header);
      HttpResponse<InputStream> r =
          f.http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
      status = r.statusCode();
      body = r.body();
      if (status != 200) {
        return;
      }
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                  String id = null;
                  String event = null;
                  String line;
                  while ((line = in.readLine()) != null) {
                    if (line.startsWith("id: ")) {
                      id = line.substring(4);
                    } else if (line.startsWith("event: ")) {
                      event = line.substring(7);
                    } else if (line.startsWith("data: ")) {
                      events.add(new Sse(id, event, Codec.mapper().readTree(line.substring(6))));
                    }
                  }
                } catch (Exception e) {
                  // closed
                }
              });
      reader.setDaemon(true);
      reader.start();
    }

    /** The next event, its data validated against the document's {@code WatchEvent}. */
    Sse next() throws InterruptedException {
      Sse e = events.poll(10, TimeUnit.SECONDS);
      assertThat(e).as("an event within 10 s").isNotNull();
      ResponseValidator.served()
          .assertValid("#/components/schemas/WatchEvent", e.data().toString(), "watch event");
      return e;
    }

    @Override
    public void close() throws java.io.IOException {
      body.close();
    }
  }

  @Test
  void streamsNodeAndPoolChangesAndResumesFromAnEventId() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      long start = f.cache.revision();
      List<Sse> seen = new ArrayList<>();
      try (Stream s = new Stream(f, "", Map.of())) {
        assertThat(s.status).isEqualTo(200);
        f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a")));
        Sse first = s.next();
        seen.add(first);
        seen.add(s.next());
        assertThat(seen).extracting(Sse::event).containsExactlyInAnyOrder("node", "pool");
        Sse node = seen.stream().filter(e -> e.event().equals("node")).findFirst().orElseThrow();
        assertThat(node.data().get("type").asText()).isEqualTo("added");
        assertThat(node.data().at("/node/spec/serial").asText()).isEqualTo("SN100001");
        f.json("PATCH", "/api/v1/nodes/n001", "{\"rack\":\"r7\"}");
        Sse modified = s.next();
        assertThat(modified.data().get("type").asText()).isEqualTo("modified");
        assertThat(modified.data().at("/node/spec/rack").asText()).isEqualTo("r7");
        seen.add(modified);
      }
      // Resume after the first event: the rest again, and what happened meanwhile.
      f.delete("/api/v1/nodes/n001", Map.of());
      try (Stream resumed = new Stream(f, "", Map.of("Last-Event-ID", seen.get(0).id()))) {
        assertThat(resumed.next().id()).isEqualTo(seen.get(1).id());
        assertThat(resumed.next().id()).isEqualTo(seen.get(2).id());
        List<String> types = new ArrayList<>();
        types.add(resumed.next().data().get("type").asText());
        types.add(resumed.next().data().get("type").asText());
        assertThat(types).contains("deleted");
      }
      // since= the start revision replays everything since.
      try (Stream all = new Stream(f, "?since=" + start, Map.of())) {
        assertThat(all.next().data().get("revision").asLong()).isGreaterThan(start);
      }
    }
  }

  @Test
  void aFilteredStreamGetsOnlyItsPoolsNodesAndNoReadingsOnlyChanges() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      try (Stream s = new Stream(f, "?kind=node&pool=b,c&skipReadings=true", Map.of())) {
        assertThat(s.status).isEqualTo(200);
        f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a")));
        f.json("PUT", "/api/v1/nodes/n002", Json.of(Json.spec(2, "b")));
        Sse added = s.next();
        assertThat(added.event()).isEqualTo("node");
        assertThat(added.data().get("id").asText()).isEqualTo("n002");
        f.cache.awaitRevision(
            f.store.putReadings(
                "n002", new io.bamel.inventory.model.NodeReadings(null, 250.0, null, null), null),
            java.time.Duration.ofSeconds(5));
        f.json("PATCH", "/api/v1/nodes/n002", "{\"rack\":\"r9\"}");
        f.json("PATCH", "/api/v1/nodes/n001", "{\"rack\":\"r9\"}");
        Sse patched = s.next();
        assertThat(patched.data().get("id").asText()).isEqualTo("n002");
        assertThat(patched.data().at("/node/spec/rack").asText()).isEqualTo("r9");
        // Neither the readings, nor node a, nor any pool change came between.
        assertThat(s.events.poll(300, TimeUnit.MILLISECONDS)).isNull();
      }
      assertThat(new Stream(f, "?kind=nodes", Map.of()).status).isEqualTo(400);
      assertThat(new Stream(f, "?skipReadings=1", Map.of()).status).isEqualTo(400);
    }
  }

  @Test
  void changesEvictedFromTheHubAreReadFromEtcdsHistory() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.withWatchHistory(5))) {
      long start = f.cache.revision();
      for (int i = 0; i < 6; i++) {
        f.json("PUT", "/api/v1/nodes/" + Json.id(i), Json.of(Json.spec(i, null)));
      }
      // The hub holds the last 5; the first comes from etcd, then the hub: all six, in order.
      try (Stream resumed = new Stream(f, "?since=" + start, Map.of())) {
        assertThat(resumed.status).isEqualTo(200);
        for (int i = 0; i < 6; i++) {
          assertThat(resumed.next().data().get("id").asText()).isEqualTo(Json.id(i));
        }
        f.json("PATCH", "/api/v1/nodes/n000", "{\"rack\":\"z\"}");
        assertThat(resumed.next().data().at("/node/spec/rack").asText()).isEqualTo("z");
      }
    }
  }
}
