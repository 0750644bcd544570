package io.bamel.inventory.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The etcd that bamel starts stays cheap to read after a burst of writes. etcd 3.4 copies its
 * backend's whole write buffer into every read transaction, at the largest size the buffer has
 * reached; {@link EtcdProcess#BACKEND_BATCH_LIMIT} bounds that size. Measured by etcd's own count
 * of the bytes it has allocated ({@code go_memstats_alloc_bytes_total}): with etcd's default limit,
 * each read after this burst allocated about 420 KB.
 */
class EtcdReadBufferIT {

  @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode();

  private static final int CONCURRENT_TXNS = 16;
  private static final int PUTS_PER_TXN = 128;
  private static final int BURSTS = 40;
  private static final int READS = 400;

  /** One read copies at most the bounded buffer (1,152 entries of 48 bytes) and its own work. */
  private static final long MAX_BYTES_PER_READ = 150_000;

  @Test
  void aReadAfterABurstOfWritesAllocatesTheBoundedBufferNotTheBurst() throws Exception {
    try (Client client = ETCD.cluster().client()) {
      byte[] value = new byte[100];
      for (int burst = 0; burst < BURSTS; burst++) {
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        for (int t = 0; t < CONCURRENT_TXNS; t++) {
          Op[] puts = new Op[PUTS_PER_TXN];
          for (int p = 0; p < PUTS_PER_TXN; p++) {
            String key = "/burst/" + burst + "/" + t + "/" + p;
            puts[p] = Op.put(bytes(key), ByteSequence.from(value), PutOption.DEFAULT);
          }
          inFlight.add(client.getKVClient().txn().Then(puts).commit());
        }
        for (CompletableFuture<?> f : inFlight) {
          f.get(30, TimeUnit.SECONDS);
        }
      }
      ByteSequence key = bytes("/burst/0/0/0");
      String metrics = ETCD.cluster().endpoints().get(0) + "/metrics";
      try (HttpClient http = HttpClient.newHttpClient()) {
        double before = allocatedBytes(http, metrics);
        for (int i = 0; i < READS; i++) {
          assertThat(client.getKVClient().get(key).get(10, TimeUnit.SECONDS).getKvs()).hasSize(1);
        }
        double perRead = (allocatedBytes(http, metrics) - before) / READS;
        System.out.printf("etcd allocated %.0f bytes per read after the burst%n", perRead);
        assertThat(perRead).isLessThan(MAX_BYTES_PER_READ);
      }
    }
  }

  private static double allocatedBytes(HttpClient http, String url) throws Exception {
    String body =
        http.send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return body.lines()
        .filter(l -> l.startsWith("go_memstats_alloc_bytes_total "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1)))
        .findFirst()
        .orElseThrow(() -> new AssertionError("etcd exports no go_memstats_alloc_bytes_total"));
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }
}
