package io.bamel.bench.api;

import io.bamel.bench.Timer;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPatch;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

/**
 * The timed requests of {@link FleetScaleBenchmark} against one running API: a listing page that
 * misses the memo, and a {@code PATCH} of a random node, each of which reads its whole answer and
 * fails unless it is what was asked for; and, as the baseline of the PATCH, the etcd work of one
 * without bamel.
 */
final class FleetRequests {

  private static final ContentType MERGE_PATCH = ContentType.create("application/merge-patch+json");

  private final ApiBench api;
  private final EtcdInventory store;
  private final Client client;
  private final CloseableHttpClient http;
  private final int nodes;
  private final SplittableRandom random;
  private final byte[] buffer = new byte[64 * 1024];
  private long patches;
  private long patchTimeouts;

  FleetRequests(ApiBench api, Client client, CloseableHttpClient http, int nodes, long seed) {
    this.api = api;
    this.client = client;
    this.store = new EtcdInventory(client);
    this.http = http;
    this.nodes = nodes;
    this.random = new SplittableRandom(seed);
  }

  /**
   * {@code GET /api/v1/nodes?pool=pool-1&limit=N} after (untimed) a readings write to a random node
   * of the fleet has moved the revision and the cache has applied it, so the memo cannot answer:
   * the answer's ETag must carry the new revision.
   */
  Timer.Trial listingMiss(int limit) {
    String url = api.base + "/api/v1/nodes?pool=pool-1&limit=" + limit;
    return new Timer.Trial() {
      private long revision;

      @Override
      public void prepare() throws Exception {
        String id = TestNodes.id(random.nextInt(nodes));
        revision =
            store.putReadings(
                id,
                new NodeReadings(Instant.now(), 200 + random.nextInt(300) * 1.0, null, null),
                null);
        if (!api.cache.awaitRevision(revision, Duration.ofSeconds(30))) {
          throw new IllegalStateException("the cache did not reach revision " + revision);
        }
      }

      @Override
      public void run() throws Exception {
        String etag = "\"l" + revision + "-";
        HttpGet get = new HttpGet(url);
        long length = execute(get, etag);
        if (length < 100L * limit) {
          throw new IllegalStateException("the listing has " + length + " bytes");
        }
      }
    };
  }

  /** {@code PATCH /api/v1/nodes/{id}} of a random node's asset tag (a change every time). */
  Timer.Trial patch() {
    return () -> {
      int i = random.nextInt(nodes);
      HttpPatch patch = new HttpPatch(api.base + "/api/v1/nodes/" + TestNodes.id(i));
      String body = "{\"assetTag\":\"AT-" + i + "-" + (++patches) + "\"}";
      patch.setEntity(new ByteArrayEntity(body.getBytes(StandardCharsets.UTF_8), MERGE_PATCH));
      execute(patch, null);
    };
  }

  /**
   * A PATCH's etcd work without bamel: a raw jetcd read of a random node's spec, then a transaction
   * writing the same bytes back if the spec is still at the revision read.
   */
  Timer.Trial rawGuardedWrite() {
    return () -> {
      ByteSequence key =
          ByteSequence.from(
              Keys.nodeSpec(TestNodes.id(random.nextInt(nodes))), StandardCharsets.UTF_8);
      KeyValue spec = client.getKVClient().get(key).get(30, TimeUnit.SECONDS).getKvs().get(0);
      boolean written =
          client
              .getKVClient()
              .txn()
              .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(spec.getModRevision())))
              .Then(Op.put(key, spec.getValue(), PutOption.DEFAULT))
              .commit()
              .get(30, TimeUnit.SECONDS)
              .isSucceeded();
      if (!written) {
        throw new IllegalStateException(
            key.toString(StandardCharsets.UTF_8) + " changed meanwhile");
      }
    };
  }

  /**
   * The PATCHes sent so far, and those answered 408 (counted, not failed: see {@link #execute}).
   */
  long[] patchesAnd408s() {
    return new long[] {patches, patchTimeouts};
  }

  /**
   * Sends {@code request}; checks 200 (and the ETag's start when given); reads the whole body. A
   * PATCH answered 408 is counted instead of failing the run: under load the API has answered a
   * 60-byte PATCH with 408 (Request Timeout), apparently its minimum request data rate (1 KiB/s)
   * measured over a body that had arrived and waited to be read; the count is reported.
   */
  private long execute(ClassicHttpRequest request, String etagPrefix) throws IOException {
    request.setHeader("Authorization", api.authorization());
    return http.execute(
        request,
        r -> {
          if (r.getCode() == 408 && request instanceof HttpPatch) {
            patchTimeouts++;
          } else if (r.getCode() != 200) {
            throw new IllegalStateException(
                request.getMethod() + " " + request.getPath() + " answered " + r.getCode());
          }
          if (etagPrefix != null) {
            Header etag = r.getFirstHeader("ETag");
            if (etag == null || !etag.getValue().startsWith(etagPrefix)) {
              throw new IllegalStateException(
                  "the listing was not built at the new revision: ETag "
                      + (etag == null ? "missing" : etag.getValue()));
            }
          }
          long total = 0;
          try (InputStream in = r.getEntity().getContent()) {
            for (int k; (k = in.read(buffer)) >= 0; ) {
              total += k;
            }
          }
          return total;
        });
  }
}
