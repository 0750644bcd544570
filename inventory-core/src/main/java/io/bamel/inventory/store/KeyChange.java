package io.bamel.inventory.store;

import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.watch.WatchEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A key's new value at a mod revision, parsed and decoded: {@code value} is the record the key
 * holds ({@code NodeSpec}, {@code PoolConfig}, ...; the empty string for index keys), or null when
 * the key was deleted, is not one the cache keeps, or holds a value this version cannot read. In
 * the last case {@code unreadable} says why (for example a record written by hand with {@code
 * etcdctl put}, or an enum value added by a newer bamel); it is null otherwise.
 */
record KeyChange(KeyRef ref, Object value, long modRevision, String unreadable) {

  /** Parses and decodes a key-value read from etcd; a value that does not decode is unreadable. */
  static KeyChange of(KeyValue kv) {
    KeyRef ref = Keys.parse(Bytes.text(kv.getKey()));
    try {
      // The value is copied out of the protobuf only for the kinds decoded (not for events or
      // index keys: most of the keys a sync writes).
      Object value =
          switch (ref.kind()) {
            case NODE_SPEC -> Codec.decode(kv.getValue().getBytes(), NodeSpec.class);
            case NODE_STATUS -> Codec.decode(kv.getValue().getBytes(), NodeStatus.class);
            case NODE_READINGS -> Codec.decode(kv.getValue().getBytes(), NodeReadings.class);
            case POOL_CONFIG -> Codec.decode(kv.getValue().getBytes(), PoolConfig.class);
            case POOL_STATUS -> Codec.decode(kv.getValue().getBytes(), PoolStatus.class);
            case POOL_MEMBER -> "";
            default -> null;
          };
      return new KeyChange(ref, value, kv.getModRevision(), null);
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      String why = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
      return new KeyChange(ref, null, kv.getModRevision(), why);
    }
  }

  /** A deleted key. */
  static KeyChange deleted(KeyValue kv, long revision) {
    return new KeyChange(Keys.parse(Bytes.text(kv.getKey())), null, revision, null);
  }

  /**
   * A watch response's events as one group of changes per revision, in order (a transaction's keys
   * share a revision); puts are decoded with {@code decoder}.
   */
  static List<List<KeyChange>> byRevision(
      List<WatchEvent> events, Function<KeyValue, KeyChange> decoder) {
    List<List<KeyChange>> groups = new ArrayList<>();
    int i = 0;
    while (i < events.size()) {
      long rev = events.get(i).getKeyValue().getModRevision();
      List<KeyChange> group = new ArrayList<>();
      while (i < events.size() && events.get(i).getKeyValue().getModRevision() == rev) {
        WatchEvent event = events.get(i);
        group.add(
            event.getEventType() == WatchEvent.EventType.DELETE
                ? deleted(event.getKeyValue(), rev)
                : decoder.apply(event.getKeyValue()));
        i++;
      }
      groups.add(group);
    }
    return groups;
  }
}
