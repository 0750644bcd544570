package io.bamel.dcim.netbox;

import io.bamel.inventory.testing.EtcdExtension;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The setup the NetBox integration tests share: an etcd for the test class (every key deleted
 * before each test), the real {@link Inventory} over it, {@link #inventory}, opened before each
 * test, and the fake NetBoxes and sources a test starts, all closed after it, the last started
 * first. A subclass's own {@code @BeforeEach} runs after the inventory has opened.
 */
abstract class NetBoxTests {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  /** This test's store, cache and leadership of {@code netbox-sync}. */
  Inventory inventory;

  private final Deque<AutoCloseable> started = new ArrayDeque<>();

  @BeforeEach
  void openInventory() throws Exception {
    inventory = new Inventory(ETCD.cluster());
  }

  @AfterEach
  void closeAll() throws Exception {
    while (!started.isEmpty()) {
      started.pop().close();
    }
    inventory.close();
  }

  /** A fake NetBox of {@code version} serving nothing yet, closed after the test. */
  FakeNetBox startNetBox(FakeNetBox.Version version) {
    FakeNetBox netbox = new FakeNetBox(version);
    started.push(netbox);
    return netbox;
  }

  /** A source (not started) for {@code settings}, closed after the test. */
  NetBoxSource source(NetBoxSettings settings) {
    NetBoxSource source = inventory.source(settings);
    started.push(source);
    return source;
  }
}
