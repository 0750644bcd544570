package io.bamel.bench.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.bench.BenchContext;
import io.bamel.bench.BenchResult;
import io.bamel.bench.Benchmark;
import io.bamel.bench.JitWarmUp;
import io.bamel.bench.Timer;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.store.BatchItem;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * {@code GET /api/v1/nodes?pool=X} for a pool of N/4 of N nodes (served from the cache) against an
 * etcd range read of the same nodes (their keys are contiguous, so one range holds exactly them):
 * p99 of each over the same number of sequential requests. Every kind first runs untimed, in turns,
 * until HotSpot's JIT is steady ({@link JitWarmUp}). They are then taken in blocks of one kind,
 * each after a {@code System.gc()}, the kinds in turn, three rounds: drift in the machine's load
 * weighs on every kind alike, and each block's GC pauses are caused by its own garbage (client and
 * server share this JVM; timing them request by request in turn put the pauses the range reads'
 * garbage causes into the API's tail).
 *
 * <p>The measured client is a real one: Apache HttpClient 5's classic (blocking) client over one
 * kept-alive HTTP/1.1 connection, as DCIM sync scripts and tools use it, sending {@code
 * Accept-Encoding: gzip}; the timed section includes reading the body through {@link
 * GZIPInputStream} to its last byte. The decoded length is checked on every request, and one answer
 * is parsed (untimed) to confirm it holds the pool's nodes and only them. Target: the gzip listing
 * at least 5 times faster than the range read (ratio at most 0.2). Information only, not counted
 * toward the target: the p50, the same listing without compression, a revalidation with {@code
 * If-None-Match} (304), and the gzip listing read through {@code java.net.http.HttpClient}, whose
 * hand-offs between its own threads add milliseconds to the tail on two cores (a {@code /healthz}
 * through it has a p99 of 4 to 10 ms here).
 */
public final class ApiListBenchmark implements Benchmark {

  /** How many times the blocks of each kind are taken in turn. */
  private static final int ROUNDS = 3;

  /** The bound on warm-up passes over all kinds (about a second each); see {@link JitWarmUp}. */
  private static final int MAX_WARM_UP_PASSES = 90;

  /** Untimed requests of a kind after each {@code System.gc()}, before its block is timed. */
  private static final int SETTLE = 5;

  @Override
  public String name() {
    return "api-list-pool";
  }

  @Override
  public List<BenchResult> run(BenchContext context) throws Exception {
    int n = context.size("listNodes", 10_000);
    int perPool = n / 4;
    int requests = context.quick() ? 48 : 600;
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      EtcdInventory store = new EtcdInventory(client);
      Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
      List<BatchItem> items = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        items.add(
            BatchItem.upsert(
                TestNodes.id(i),
                TestNodes.spec(i, "pool-" + (i / perPool)),
                NodeEvent.of(t0, "created", null)));
      }
      store.upsertAll(items);
      ByteSequence from = bytes(Keys.node(TestNodes.id(perPool)));
      ByteSequence to = bytes(Keys.node(TestNodes.id(2 * perPool)));
      GetOption range = GetOption.builder().withRange(to).build();
      double[] raw = new double[requests];
      double[] gzip = new double[requests];
      double[] identity = new double[requests];
      double[] revalidate = new double[requests];
      double[] jdk = new double[requests];
      long gzipBytes;
      try (ApiBench bench = new ApiBench(client);
          CloseableHttpClient http = HttpClients.custom().disableContentCompression().build()) {
        String url = bench.base + "/api/v1/nodes?pool=pool-1&limit=" + n;
        byte[] compressed =
            http.execute(get(bench, url, "Accept-Encoding", "gzip"), ApiListBenchmark::okBody);
        gzipBytes = compressed.length;
        byte[] body;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
          body = in.readAllBytes();
        }
        if (!Arrays.equals(body, bench.send("GET", url.substring(bench.base.length()), null))) {
          throw new IllegalStateException("the gzip answer does not decode to the identity one");
        }
        checkPool(body, perPool);
        int length = body.length;
        String etag = http.execute(get(bench, url), r -> r.getFirstHeader("ETag").getValue());
        java.net.http.HttpRequest jdkRequest =
            bench.get(url.substring(bench.base.length()), "Accept-Encoding", "gzip");
        byte[] buffer = new byte[64 * 1024];
        List<Timer.Trial> kinds =
            List.of(
                () -> rangeRead(client, from, range, perPool),
                () -> read(http, get(bench, url, "Accept-Encoding", "gzip"), true, buffer, length),
                () -> read(http, get(bench, url), false, buffer, length),
                () -> notModified(http, get(bench, url, "If-None-Match", etag)),
                () -> readWithJdkClient(bench, jdkRequest, buffer, length));
        double[][] samples = {raw, gzip, identity, revalidate, jdk};
        // Until the JIT has compiled every kind's path: with 200 untimed requests of each, the
        // API's p99 was 0.20 to 0.34 of the range read's, most of it compilation (a 304's p99 was
        // 2.8 to 3.1 ms then, 0.13 to 0.17 ms once steady).
        JitWarmUp.WarmUpReport warmUp =
            JitWarmUp.run(kinds, context.quick() ? 1 : MAX_WARM_UP_PASSES);
        System.out.printf("%s: warm-up %s%n", name(), warmUp);
        // Blocks of each kind in turn, ROUNDS times over, so that drift in the machine's load
        // weighs on all kinds alike while each block pays for its own garbage only.
        int block = requests / ROUNDS;
        for (int round = 0; round < ROUNDS; round++) {
          for (int k = 0; k < kinds.size(); k++) {
            System.gc();
            // The first requests after a full collection run on a heap it has just moved (10 to
            // 15 ms here, whatever the kind): settle before timing, so that no kind pays for it.
            for (int settle = 0; settle < SETTLE; settle++) {
              kinds.get(k).run();
            }
            for (int i = round * block; i < (round + 1) * block; i++) {
              samples[k][i] = Timer.once(kinds.get(k));
            }
          }
        }
      }
      double rawP99 = percentile(raw, 0.99);
      String what = String.format("GET ?pool (%,d of %,d", perPool, n);
      return List.of(
          BenchResult.ratioAtMost(
              name(),
              String.format(
                  "p99 %s, gzip %,d KB, decoded) vs etcd range", what, (gzipBytes + 512) / 1024),
              percentile(gzip, 0.99),
              rawP99,
              "ms",
              0.2),
          info(what + ", gzip) p50 vs etcd range p50", gzip, raw, 0.5),
          info(what + ", identity) p99 vs etcd range", identity, raw, 0.99),
          info(what + ") p99 304 If-None-Match vs etcd range", revalidate, raw, 0.99),
          info(
              what + ", gzip) p99 through java.net.http.HttpClient vs etcd range", jdk, raw, 0.99));
    }
  }

  private BenchResult info(String measure, double[] bamel, double[] raw, double p) {
    double b = percentile(bamel, p);
    double r = percentile(raw, p);
    return new BenchResult(name(), measure + " (info)", b, r, "ms", b / r, "info", true);
  }

  private static void rangeRead(Client client, ByteSequence from, GetOption range, int perPool)
      throws Exception {
    GetResponse r = client.getKVClient().get(from, range).get(30, TimeUnit.SECONDS);
    if (r.getKvs().size() < perPool) {
      throw new IllegalStateException("the range read missed nodes");
    }
  }

  /** A GET of {@code url} with the token and the given header pairs. */
  private static HttpGet get(ApiBench bench, String url, String... headers) {
    HttpGet get = new HttpGet(url);
    get.setHeader("Authorization", bench.authorization());
    for (int i = 0; i < headers.length; i += 2) {
      get.setHeader(headers[i], headers[i + 1]);
    }
    return get;
  }

  /** Reads the whole answer (through gzip when {@code gzip}); checks its decoded length. */
  private static void read(
      CloseableHttpClient http, HttpGet request, boolean gzip, byte[] buffer, int length)
      throws IOException {
    http.execute(
        request,
        r -> {
          Header encoding = r.getFirstHeader("Content-Encoding");
          boolean gzipped = encoding != null && encoding.getValue().equals("gzip");
          if (r.getCode() != 200 || gzipped != gzip) {
            throw new IllegalStateException("answered " + r.getCode() + ", gzip " + gzipped);
          }
          try (InputStream body = r.getEntity().getContent();
              InputStream in = gzip ? new GZIPInputStream(body, buffer.length) : body) {
            checkLength(drain(in, buffer), length);
          }
          return null;
        });
  }

  /** The same gzip read through the JDK's client (information: what the client costs). */
  private static void readWithJdkClient(
      ApiBench bench, java.net.http.HttpRequest request, byte[] buffer, int length)
      throws Exception {
    java.net.http.HttpResponse<InputStream> r =
        bench.http.send(request, java.net.http.HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = new GZIPInputStream(r.body(), buffer.length)) {
      checkLength(drain(in, buffer), length);
    }
  }

  private static void checkLength(long decoded, int length) {
    if (decoded != length) {
      throw new IllegalStateException("decoded " + decoded + " bytes, expected " + length);
    }
  }

  private static long drain(InputStream in, byte[] buffer) throws IOException {
    long total = 0;
    for (int k; (k = in.read(buffer)) >= 0; ) {
      total += k;
    }
    return total;
  }

  private static void notModified(CloseableHttpClient http, HttpGet request) throws IOException {
    int code =
        http.execute(
            request,
            r -> {
              EntityUtils.consume(r.getEntity());
              return r.getCode();
            });
    if (code != 304) {
      throw new IllegalStateException("revalidation answered " + code);
    }
  }

  /** The body of a 200 answer, as it came over the wire. */
  private static byte[] okBody(ClassicHttpResponse r) throws IOException {
    if (r.getCode() != 200) {
      throw new IllegalStateException("answered " + r.getCode());
    }
    return EntityUtils.toByteArray(r.getEntity());
  }

  /** Parses a listing once: exactly the pool's nodes, all of pool-1. */
  private static void checkPool(byte[] body, int perPool) throws IOException {
    JsonNode items = Codec.mapper().readTree(body).get("items");
    if (items.size() != perPool) {
      throw new IllegalStateException("the listing has " + items.size() + " items");
    }
    for (JsonNode item : items) {
      if (!item.at("/spec/pool").asText().equals("pool-1")) {
        throw new IllegalStateException("the listing is not pool-1's only");
      }
    }
  }

  private static double percentile(double[] millis, double p) {
    return Timer.percentile(millis, p);
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
