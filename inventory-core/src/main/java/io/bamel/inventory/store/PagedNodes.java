package io.bamel.inventory.store;

import io.bamel.inventory.model.Node;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Every node in id order, read from etcd a page at a time as the iteration goes, all pages at the
 * revision of the first ({@link EtcdInventory#listNodes}): memory holds one page, never the fleet.
 * Each iterator reads afresh; errors are the listing's.
 */
final class PagedNodes implements Iterable<Node> {

  private final EtcdInventory inventory;
  private final int pageSize;

  PagedNodes(EtcdInventory inventory, int pageSize) {
    this.inventory = inventory;
    this.pageSize = pageSize;
  }

  @Override
  public Iterator<Node> iterator() {
    return new Iterator<>() {
      private Iterator<Node> page = List.<Node>of().iterator();
      private String after;
      private long revision;
      private boolean last;

      @Override
      public boolean hasNext() {
        while (!page.hasNext() && !last) {
          NodePage next = inventory.listNodes(after, pageSize, revision);
          revision = next.revision();
          after = next.next();
          last = after == null;
          page = next.items().iterator();
        }
        return page.hasNext();
      }

      @Override
      public Node next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return page.next();
      }
    };
  }
}
