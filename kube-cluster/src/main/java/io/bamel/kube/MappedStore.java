package io.bamel.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The item store of one informer that keeps only what bamel needs: for every object, a slim copy
 * (its identity: name, namespace, uid, resourceVersion, which is all the informer itself uses) and
 * the port's record mapped from the full object once, when it arrives. The full object is not kept,
 * so 50,000 pods cost their records, not their specs, statuses and managedFields.
 *
 * <p>An optional index groups the keys by a value of the record (pods by node name). An optional
 * {@link Listener} sees every change as (key, record before or null, record after or null), on the
 * informer's thread, after the store holds it: fabric8 relists (after a 410 Gone) by putting every
 * listed object and removing the keys the list no longer has, so a listener sees a relist as the
 * changes it makes and whatever it derives stays exact. Written by the informer's single thread,
 * read by any: the maps are concurrent, so a reader sees every object either before or after a
 * change.
 *
 * @param <T> the fabric8 type
 * @param <R> the record
 */
final class MappedStore<T extends HasMetadata, R> implements ItemStore<T> {

  private record Entry<T, R>(T slim, R record) {}

  /**
   * Told of every change of the store, on the informer's thread; must return quickly.
   *
   * @param <R> the record
   */
  @FunctionalInterface
  interface Listener<R> {
    /**
     * {@code key}'s record went from {@code before} (null: absent) to {@code after} (null: gone).
     */
    void changed(String key, R before, R after);
  }

  private final UnaryOperator<T> slim;
  private final Function<T, R> map;
  private final Function<R, String> indexOf;
  private final Listener<R> listener;
  private final Map<String, Entry<T, R>> entries = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> index = new ConcurrentHashMap<>();

  /**
   * A store keeping {@code slim(object)} and {@code map(object)}, indexing by {@code indexOf}
   * (null: no index; a null value: not indexed), telling {@code listener} (null: none) of every
   * change.
   */
  MappedStore(
      UnaryOperator<T> slim,
      Function<T, R> map,
      Function<R, String> indexOf,
      Listener<R> listener) {
    this.slim = slim;
    this.map = map;
    this.indexOf = indexOf;
    this.listener = listener;
  }

  @Override
  public String getKey(T obj) {
    return Cache.metaNamespaceKeyFunc(obj);
  }

  @Override
  public T put(String key, T obj) {
    R record = map.apply(obj);
    Entry<T, R> before = entries.put(key, new Entry<>(slim.apply(obj), record));
    R previous = before == null ? null : before.record();
    if (indexOf != null) {
      String was = previous == null ? null : indexOf.apply(previous);
      String now = indexOf.apply(record);
      if (was != null && !was.equals(now)) {
        unindex(was, key);
      }
      if (now != null) {
        index.computeIfAbsent(now, k -> ConcurrentHashMap.newKeySet()).add(key);
      }
    }
    if (listener != null) {
      listener.changed(key, previous, record);
    }
    return before == null ? null : before.slim();
  }

  @Override
  public T remove(String key) {
    Entry<T, R> before = entries.remove(key);
    if (before == null) {
      return null;
    }
    if (indexOf != null) {
      String was = indexOf.apply(before.record());
      if (was != null) {
        unindex(was, key);
      }
    }
    if (listener != null) {
      listener.changed(key, before.record(), null);
    }
    return before.slim();
  }

  private void unindex(String value, String key) {
    index.computeIfPresent(
        value,
        (k, keys) -> {
          keys.remove(key);
          return keys.isEmpty() ? null : keys;
        });
  }

  @Override
  public Stream<String> keySet() {
    return entries.keySet().stream();
  }

  @Override
  public Stream<T> values() {
    return entries.values().stream().map(Entry::slim);
  }

  @Override
  public int size() {
    return entries.size();
  }

  @Override
  public T get(String key) {
    Entry<T, R> e = entries.get(key);
    return e == null ? null : e.slim();
  }

  /** Every record. */
  List<R> records() {
    return entries.values().stream().map(Entry::record).toList();
  }

  /** The record under {@code key}. */
  Optional<R> record(String key) {
    Entry<T, R> e = entries.get(key);
    return e == null ? Optional.empty() : Optional.of(e.record());
  }

  /** The records whose index value is {@code value}. */
  List<R> indexed(String value) {
    Set<String> keys = index.get(value);
    if (keys == null) {
      return List.of();
    }
    return keys.stream()
        .map(entries::get)
        .filter(e -> e != null)
        .map(Entry::record)
        .filter(r -> value.equals(indexOf.apply(r)))
        .toList();
  }
}
