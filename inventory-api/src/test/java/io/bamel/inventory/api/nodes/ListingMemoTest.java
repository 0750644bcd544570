package io.bamel.inventory.api.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class ListingMemoTest {

  private static byte[] json(int size, long seed) {
    // Exactly size bytes, compressible like a listing: repeated field names, varying values.
    StringBuilder b = new StringBuilder("{\"items\":[");
    Random random = new Random(seed);
    while (b.length() < size - 20) {
      b.append("{\"id\":\"n").append(random.nextInt(100_000)).append("\",\"rack\":\"r1\"},");
    }
    while (b.length() < size - 2) {
      b.append(' ');
    }
    b.setLength(size - 2);
    b.append("]}");
    return b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static byte[] gunzip(byte[] gzip) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
      return in.readAllBytes();
    }
  }

  @Test
  void servesAQueryOnlyAtTheRevisionItWasBuiltAt() {
    ListingMemo memo = new ListingMemo();
    byte[] body = json(1_000, 1);
    memo.put("pool=a|500", 7, body);
    assertThat(memo.get("pool=a|500", 7).identity()).isSameAs(body);
    assertThat(memo.get("pool=a|500", 8)).isNull();
    assertThat(memo.get("pool=b|500", 7)).isNull();
    // A newer revision replaces the query's entry and its bytes.
    memo.put("pool=a|500", 8, json(500, 2));
    assertThat(memo.get("pool=a|500", 7)).isNull();
    assertThat(memo.size()).isEqualTo(1);
    assertThat(memo.bytes()).isEqualTo(500);
  }

  @Test
  void theGzipFormIsBuiltOnceAndDecodesToTheIdentityBytes() throws Exception {
    ListingMemo memo = new ListingMemo();
    byte[] body = json(200_000, 3);
    ListingMemo.Entry entry = memo.put("q", 1, body);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<byte[]>> results = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  return memo.get("q", 1).gzip();
                }));
      }
      go.countDown();
      byte[] first = results.get(0).get();
      for (Future<byte[]> r : results) {
        assertThat(r.get()).isSameAs(first);
      }
      assertThat(memo.gzipBuilds()).isEqualTo(1);
      assertThat(gunzip(first)).isEqualTo(body);
      assertThat(first.length).isLessThan(body.length / 3);
      assertThat(memo.bytes()).isEqualTo(body.length + first.length);
      assertThat(entry.gzip()).isSameAs(first);
      assertThat(memo.gzipBuilds()).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    // The next revision is a new entry: its gzip form is built again, once.
    memo.put("q", 2, body).gzip();
    memo.get("q", 2).gzip();
    assertThat(memo.gzipBuilds()).isEqualTo(2);
  }

  @Test
  void staysWithinItsByteBoundDroppingTheLeastRecentlyUsed() {
    ListingMemo memo = new ListingMemo(10_000);
    memo.put("a", 1, json(4_000, 1));
    memo.put("b", 1, json(4_000, 2));
    assertThat(memo.get("a", 1)).isNotNull(); // a is now more recent than b
    memo.put("c", 1, json(4_000, 3));
    assertThat(memo.bytes()).isLessThanOrEqualTo(10_000);
    assertThat(memo.get("b", 1)).isNull();
    assertThat(memo.get("a", 1)).isNotNull();
    assertThat(memo.get("c", 1)).isNotNull();
    assertThat(memo.bytes()).isEqualTo(8_000);

    // Gzip bytes count too: building one can push another entry out.
    ListingMemo gzipped = new ListingMemo(10_000);
    gzipped.put("a", 1, json(3_500, 5));
    ListingMemo.Entry d = gzipped.put("d", 1, json(6_000, 6));
    assertThat(gzipped.bytes()).isEqualTo(9_500);
    int gzip = d.gzip().length;
    assertThat(9_500 + gzip)
        .as("the gzip form must push the total over the bound")
        .isGreaterThan(10_000);
    assertThat(gzipped.get("a", 1)).isNull();
    assertThat(gzipped.get("d", 1)).isNotNull();
    assertThat(gzipped.bytes()).isEqualTo(6_000 + gzip);

    // A listing over the bound is answered but not kept.
    ListingMemo.Entry big = memo.put("e", 1, json(20_000, 5));
    assertThat(big.identity()).hasSize(20_000);
    assertThat(memo.get("e", 1)).isNull();
    assertThat(memo.bytes()).isLessThanOrEqualTo(10_000);
  }

  @Test
  void anEntryWhoseGzipFormGoesOverTheBoundIsDropped() throws Exception {
    // Random bytes do not compress: identity 6,000 plus gzip over 6,000 exceed 10,000.
    byte[] noise = new byte[6_000];
    new Random(9).nextBytes(noise);
    ListingMemo memo = new ListingMemo(10_000);
    byte[] gzip = memo.put("x", 1, noise).gzip();
    assertThat(gunzip(gzip)).isEqualTo(noise);
    assertThat(memo.get("x", 1)).isNull();
    assertThat(memo.bytes()).isZero();
  }
}
