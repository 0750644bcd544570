package io.bamel.inventory.api.nodes;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The ascending merge of ascending sequences of strings, lazily: taking the first {@code k}
 * elements of the merge of {@code n} sequences costs {@code O(k log n)}, whatever their sizes (a
 * page of the members of several pools without sorting them all). Equal elements are kept.
 */
final class SortedMerge implements Iterable<String> {

  private final List<? extends Iterable<String>> sources;

  SortedMerge(List<? extends Iterable<String>> sources) {
    this.sources = List.copyOf(sources);
  }

  private record Head(String value, Iterator<String> rest) {}

  @Override
  public Iterator<String> iterator() {
    PriorityQueue<Head> heads =
        new PriorityQueue<>(Math.max(1, sources.size()), (a, b) -> a.value().compareTo(b.value()));
    for (Iterable<String> source : sources) {
      Iterator<String> it = source.iterator();
      if (it.hasNext()) {
        heads.add(new Head(it.next(), it));
      }
    }
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !heads.isEmpty();
      }

      @Override
      public String next() {
        Head head = heads.poll();
        if (head == null) {
          throw new NoSuchElementException();
        }
        if (head.rest().hasNext()) {
          heads.add(new Head(head.rest().next(), head.rest()));
        }
        return head.value();
      }
    };
  }
}
