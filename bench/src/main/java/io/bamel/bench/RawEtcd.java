package io.bamel.bench;

import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.Keys;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
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

  /**
   * The keys bamel writes when it creates node {@code id} with {@code spec} and its first event:
   * the spec, the pool member key, the event, and the unique-value index keys of the serial, MAC
   * and management address the spec has (each holding the node id), as {@code docs/etcd-schema.md}
   * lays them out.
   */
  public static List<Map.Entry<String, byte[]>> newNodeKeys(
      String id, NodeSpec spec, NodeEvent event) {
    List<Map.Entry<String, byte[]>> kvs = new ArrayList<>(6);
    kvs.add(Map.entry(Keys.nodeSpec(id), Codec.encode(spec)));
    kvs.add(Map.entry(Keys.poolMember(spec.pool(), id), new byte[0]));
    kvs.add(Map.entry(Keys.nodeEvent(id, 1), Codec.encode(event.withSeq(1))));
    byte[] holder = id.getBytes(StandardCharsets.UTF_8);
    if (spec.serial() != null) {
      kvs.add(Map.entry(Keys.indexSerial(spec.serial()), holder));
    }
    if (spec.macAddress() != null) {
      kvs.add(Map.entry(Keys.indexMac(spec.macAddress()), holder));
    }
    if (spec.mgmtAddress() != null) {
      kvs.add(Map.entry(Keys.indexMgmt(spec.mgmtAddress()), holder));
    }
    return kvs;
  }

  /**
   * The status the node controller leaves on a node it found off, {@code since} then: off, its BMC
   * reachable, spec revision 1 observed (encoded as stored).
   */
  public static byte[] offStatus(Instant since) {
    return Codec.encode(
        NodeStatus.builder()
            .state(NodeState.OFF)
            .stateSince(since)
            .observedPower(ObservedPower.OFF)
            .bmcReachable(true)
            .observedSpecRevision(1L)
            .build());
  }

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

  /** Deletes every key of {@code keys} in transactions of {@code opsPerTxn} deletes. */
  public static void deleteAll(Client client, List<String> keys, int opsPerTxn) throws Exception {
    for (int start = 0; start < keys.size(); start += opsPerTxn) {
      List<Op> ops = new ArrayList<>();
      for (String key : keys.subList(start, Math.min(keys.size(), start + opsPerTxn))) {
        ops.add(Op.delete(ByteSequence.from(key, StandardCharsets.UTF_8), DeleteOption.DEFAULT));
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
