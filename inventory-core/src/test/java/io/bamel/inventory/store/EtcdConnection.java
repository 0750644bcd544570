package io.bamel.inventory.store;

import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.Client;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Per test, a client of the class's etcd and an {@link EtcdInventory} over it, closed after the
 * test: the connection the store's integration tests share.
 *
 * <pre>{@code
 * @RegisterExtension static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();
 * @RegisterExtension final EtcdConnection etcd = new EtcdConnection(ETCD);
 * }</pre>
 */
final class EtcdConnection implements BeforeEachCallback, AfterEachCallback {

  private final EtcdExtension etcd;
  private Client client;
  private EtcdInventory inventory;

  EtcdConnection(EtcdExtension etcd) {
    this.etcd = etcd;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    client = etcd.cluster().client();
    inventory = new EtcdInventory(client);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    client.close();
  }

  /** This test's client. */
  Client client() {
    return client;
  }

  /** The store over {@link #client()}. */
  EtcdInventory inventory() {
    return inventory;
  }
}
