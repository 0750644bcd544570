package io.bamel.bench;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The baselines and loaders of the benchmarks: plain jetcd calls with no bamel logic, for the same
 * keys and bytes.
 */
public final class RawEtcd {

  private RawEtcd() {}

  /** Writes every key-value in transactions of {@code opsPerTxn} puts, one after the other. */
  public static void putAll(Client client, List<Map.Entry<String, byte[]>> kvs, int opsPerTxn)
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

  /** Reads every key under {@code prefix} in pages of {@code pageSize} at one revision. */
  public static List<KeyValue> rangeAll(Client client, String prefix, int pageSize)
      throws Exception {
    List<KeyValue> all = new ArrayList<>();
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
      all.addAll(page.getKvs());
      if (!page.isMore()) {
        return all;
      }
      KeyValue last = page.getKvs().get(page.getKvs().size() - 1);
      byte[] next = java.util.Arrays.copyOf(last.getKey().getBytes(), last.getKey().size() + 1);
      from = ByteSequence.from(next);
    }
  }
}
