package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.api.http.ListingResponse;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.BatchResult;
import io.bamel.inventory.store.Codec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Listings over HTTP: gzip by Accept-Encoding (with q-values), ETag and If-None-Match. */
class ListingEncodingIT extends ApiFixtureTests {

  private static final String LIST = "/api/v1/nodes?pool=a&limit=1000";

  @BeforeEach
  void sixtyNodes() throws Exception {
    List<BatchItem> items = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      items.add(
          BatchItem.upsert(
              Json.id(i),
              Json.spec(i, i < 50 ? "a" : "b"),
              NodeEvent.of(Instant.parse("2026-01-01T00:00:00Z"), "created", null)));
    }
    long revision =
        f.store.upsertAll(items).stream().mapToLong(BatchResult::revision).max().orElseThrow();
    assertThat(f.cache.awaitRevision(revision, Duration.ofSeconds(10))).isTrue();
  }

  private ApiFixture.Response list(String path, Map<String, String> headers) {
    return f.send("GET", path, ApiFixture.READ, null, null, headers);
  }

  private static byte[] gunzip(byte[] gzip) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
      return in.readAllBytes();
    }
  }

  @Test
  void aLargeListingIsGzippedForClientsThatAskAndDecodesToTheIdentityBytes() throws Exception {
    ApiFixture.Response identity = list(LIST, Map.of());
    assertThat(identity.status()).isEqualTo(200);
    assertThat(identity.header("Content-Encoding")).isNull();
    assertThat(identity.header("Vary")).isEqualTo("Accept-Encoding");
    assertThat(identity.raw().body().length).isGreaterThan(ListingResponse.GZIP_FROM);
    assertThat(identity.header("Content-Length"))
        .isEqualTo(String.valueOf(identity.raw().body().length));
    assertThat(identity.json().get("items")).hasSize(50);

    ApiFixture.Response gzip = list(LIST, Map.of("Accept-Encoding", "gzip, deflate"));
    assertThat(gzip.status()).isEqualTo(200);
    assertThat(gzip.header("Content-Encoding")).isEqualTo("gzip");
    assertThat(gzip.header("Vary")).isEqualTo("Accept-Encoding");
    assertThat(gzip.contentType()).startsWith("application/json");
    assertThat(gzip.header("Content-Length")).isEqualTo(String.valueOf(gzip.raw().body().length));
    assertThat(gzip.raw().body().length).isLessThan(identity.raw().body().length / 3);
    assertThat(gunzip(gzip.raw().body())).isEqualTo(identity.raw().body());
    assertThat(gzip.header("ETag")).isEqualTo(identity.header("ETag"));

    // Pages after the first (read from etcd at the pinned revision) are gzipped the same way.
    String first = list("/api/v1/nodes?limit=30", Map.of()).json().get("continue").asText();
    String next = "/api/v1/nodes?limit=30&continue=" + first;
    ApiFixture.Response plainNext = list(next, Map.of());
    ApiFixture.Response gzipNext = list(next, Map.of("Accept-Encoding", "gzip"));
    assertThat(gzipNext.header("Content-Encoding")).isEqualTo("gzip");
    assertThat(gunzip(gzipNext.raw().body())).isEqualTo(plainNext.raw().body());
    assertThat(plainNext.json().get("items")).hasSize(30);
  }

  @Test
  void qValuesAreRespectedAndNothingAcceptableIs406() throws Exception {
    ApiFixture.Response refused = list(LIST, Map.of("Accept-Encoding", "gzip;q=0"));
    assertThat(refused.status()).isEqualTo(200);
    assertThat(refused.header("Content-Encoding")).isNull();
    assertThat(refused.json().get("items")).hasSize(50);

    ApiFixture.Response preferIdentity =
        list(LIST, Map.of("Accept-Encoding", "gzip;q=0.4, identity;q=0.9"));
    assertThat(preferIdentity.header("Content-Encoding")).isNull();

    ApiFixture.Response onlyGzip = list(LIST, Map.of("Accept-Encoding", "gzip, identity;q=0"));
    assertThat(onlyGzip.header("Content-Encoding")).isEqualTo("gzip");
    assertThat(gunzip(onlyGzip.raw().body())).isEqualTo(refused.raw().body());

    // A small listing goes as it is even to a gzip client, unless identity is refused.
    String small = "/api/v1/nodes?pool=b&limit=2";
    assertThat(list(small, Map.of("Accept-Encoding", "gzip")).header("Content-Encoding")).isNull();
    ApiFixture.Response smallGzip = list(small, Map.of("Accept-Encoding", "gzip, identity;q=0"));
    assertThat(smallGzip.header("Content-Encoding")).isEqualTo("gzip");
    assertThat(Codec.mapper().readTree(gunzip(smallGzip.raw().body())).get("items")).hasSize(2);

    for (String none : List.of("identity;q=0", "*;q=0", "gzip;q=0, identity;q=0", "br, *;q=0")) {
      ApiFixture.Response r = list(LIST, Map.of("Accept-Encoding", none));
      assertThat(r.status()).as(none).isEqualTo(406);
      assertThat(r.contentType()).startsWith("application/problem+json");
      assertThat(r.json().get("detail").asText()).contains("Accept-Encoding");
    }
  }

  @Test
  void ifNoneMatchIs304UntilAWriteChangesTheEtag() {
    ApiFixture.Response first = list(LIST, Map.of("Accept-Encoding", "gzip"));
    String etag = first.header("ETag");
    long revision = f.cache.revision();
    assertThat(etag).matches("\"l" + revision + "-[0-9a-f]{1,8}\"");

    ApiFixture.Response same = list(LIST, Map.of("If-None-Match", etag));
    assertThat(same.status()).isEqualTo(304);
    assertThat(same.raw().body()).isEmpty();
    assertThat(same.header("ETag")).isEqualTo(etag);
    assertThat(same.header("Vary")).isEqualTo("Accept-Encoding");
    // A list of tags, a weak tag and * match too.
    assertThat(list(LIST, Map.of("If-None-Match", "\"x\", " + etag)).status()).isEqualTo(304);
    assertThat(list(LIST, Map.of("If-None-Match", "W/" + etag)).status()).isEqualTo(304);
    assertThat(list(LIST, Map.of("If-None-Match", "*")).status()).isEqualTo(304);
    // Another query at the same revision has another ETag.
    ApiFixture.Response other = list("/api/v1/nodes?pool=b", Map.of("If-None-Match", etag));
    assertThat(other.status()).isEqualTo(200);
    assertThat(other.header("ETag")).isNotEqualTo(etag);

    ApiFixture.Response patched = f.json("PATCH", "/api/v1/nodes/n001", "{\"rack\":\"r9\"}");
    assertThat(patched.status()).isEqualTo(200);
    ApiFixture.Response changed = list(LIST, Map.of("If-None-Match", etag));
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.header("ETag")).isNotEqualTo(etag);
    assertThat(changed.json().get("revision").asLong()).isGreaterThan(revision);
    assertThat(changed.json().at("/items/1/spec/rack").asText()).isEqualTo("r9");
    assertThat(list(LIST, Map.of("If-None-Match", changed.header("ETag"))).status()).isEqualTo(304);
  }
}
