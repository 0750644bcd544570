package io.bamel.pool;

import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.kube.Fabric8Cluster;
import io.etcd.jetcd.Client;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.threeten.extra.MutableClock;

/**
 * The setup the pool controller's integration tests share: an etcd for the test class (every key
 * deleted before each test) and, for each test, a client and store over it, the fabric8 mock API
 * server with a client and a {@link Fabric8Cluster} over it, and a fake clock standing at {@link
 * #T0}; closed after the test, after what the test added to {@link #detach}.
 */
abstract class PoolSiteTests {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  /** A Monday, 12:00 UTC: hour-of-week bucket 12. */
  static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

  Client client;
  EtcdInventory store;
  KubeMock kubeServer;
  KubernetesClient kube;
  Fabric8Cluster cluster;
  MutableClock clock;

  /** Run after the test, in order, before the site closes (log appenders, controllers). */
  final List<Runnable> detach = new ArrayList<>();

  @BeforeEach
  void startSite() {
    client = ETCD.cluster().client();
    store = new EtcdInventory(client);
    kubeServer = new KubeMock();
    kube = kubeServer.client();
    cluster = new Fabric8Cluster(kubeServer.client());
    clock = MutableClock.of(T0, ZoneOffset.UTC);
  }

  @AfterEach
  void stopSite() {
    detach.forEach(Runnable::run);
    cluster.close();
    kube.close();
    kubeServer.close();
    client.close();
  }
}
