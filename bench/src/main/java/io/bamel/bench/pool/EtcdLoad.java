package io.bamel.bench.pool;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Plain jetcd calls: loading the fleet, and the baseline read of the same keys. */
final class EtcdLoad {

  private EtcdLoad() {}

  /** Writes every key-value in transactions of {@code opsPerTxn} puts. */
  static void putAll(Client client, List<Map.Entry<String, byte[]>> kvs, int opsPerTxn)
      throws Exception {
    for (int start = 0; start < kvs.size(); start += opsPerTxn) {
      List<Op> ops = new ArrayList<>();
      for (Map.Entry<String, byte[]> kv :
          kvs.subList(start, Math.min(kvs.size(), start + opsPerTxn))) {
        ops.add(
            Op.put(
                ByteSequence.from(kv.getKey(), StandardCharsets.UTF_8),
                ByteSequence.from(kv.getValue()),
                PutOption.DEFAULT));
      }
      client.getKVClient().txn().Then(ops.toArray(Op[]::new)).commit().get(30, TimeUnit.SECONDS);
    }
  }

  /** Reads every key under {@code prefix} in pages at one revision; returns the key count. */
  static int rangeAll(Client client, String prefix, int pageSize) throws Exception {
    int count = 0;
    String end =
        prefix.substring(0, prefix.length() - 1) + (char) (prefix.charAt(prefix.length() - 1) + 1);
    ByteSequence from = ByteSequence.from(prefix, StandardCharsets.UTF_8);
    long revision = 0;
    while (true) {
      GetOption.Builder option =
          GetOption.builder()
              .withRange(ByteSequence.from(end, StandardCharsets.UTF_8))
              .withLimit(pageSize);
      if (revision > 0) {
        option.withRevision(revision);
      }
      GetResponse page = client.getKVClient().get(from, option.build()).get(30, TimeUnit.SECONDS);
      revision = page.getHeader().getRevision();
      count += page.getKvs().size();
      if (!page.isMore()) {
        return count;
      }
      var last = page.getKvs().get(page.getKvs().size() - 1).getKey().getBytes();
      from = ByteSequence.from(Arrays.copyOf(last, last.length + 1));
    }
  }
}
