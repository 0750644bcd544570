package io.bamel.inventory.store;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Reads every key under a prefix in pages, all at one revision, so that no single etcd reply grows
 * with the fleet (gRPC refuses replies above the client's inbound message limit, 4 MiB by default).
 * The first page fixes the revision; later pages read at it, so the result is one consistent
 * snapshot, or {@link io.bamel.inventory.store.CompactedException} if that revision is compacted
 * meanwhile.
 */
final class PrefixScan {

  private final KV kv;
  private final int pageSize;
  private final Duration timeout;

  PrefixScan(KV kv, int pageSize, Duration timeout) {
    if (pageSize < 1) {
      throw new IllegalArgumentException("page size must be at least 1");
    }
    this.kv = kv;
    this.pageSize = pageSize;
    this.timeout = timeout;
  }

  /**
   * Visits every key under {@code prefix} in key order.
   *
   * @param revision the revision to read at (0: now)
   * @param keysOnly whether values are left out
   * @param what what is being read, for error messages
   * @return the revision the keys were read at
   */
  long forEach(
      String prefix, long revision, boolean keysOnly, String what, Consumer<KeyValue> visitor) {
    String end = Keys.prefixEnd(prefix);
    String from = prefix;
    long at = revision;
    while (true) {
      GetOption.Builder option =
          GetOption.builder().withRange(Bytes.of(end)).withLimit(pageSize).withKeysOnly(keysOnly);
      if (at > 0) {
        option.withRevision(at);
      }
      GetResponse page = Etcd.await(kv.get(Bytes.of(from), option.build()), timeout, what);
      if (at == 0) {
        at = page.getHeader().getRevision();
      }
      for (KeyValue key : page.getKvs()) {
        visitor.accept(key);
      }
      if (!page.isMore() || page.getKvs().isEmpty()) {
        return at;
      }
      from = Bytes.text(page.getKvs().get(page.getKvs().size() - 1).getKey()) + "\u0000";
    }
  }
}
