package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.InventoryCache;
import io.bamel.inventory.sync.SyncConflicts;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.Client;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The real inventory for the NetBox tests: a jetcd client on the harness's etcd, the store, a
 * synced cache, and this process leading {@code netbox-sync}. Builds NetBox settings and sources
 * against a {@link FakeNetBox}. Closing it stops all of them.
 */
final class Inventory implements AutoCloseable {

  final Client client;
  final EtcdInventory store;
  final InventoryCache cache;
  final LeaderElection election;
  final PrometheusRegistry registry = new PrometheusRegistry();

  Inventory(EtcdCluster etcd) throws InterruptedException {
    client = etcd.client();
    store = new EtcdInventory(client);
    cache = new InventoryCache(client).start();
    if (!cache.awaitSynced(Duration.ofSeconds(20))) {
      throw new IllegalStateException("cache did not sync");
    }
    election =
        new LeaderElection(
                client,
                NetBoxSource.COMPONENT,
                "test",
                LeaderElection.Options.withTtl(Duration.ofSeconds(6)))
            .start();
    long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (election.fence().isEmpty()) {
      if (System.nanoTime() > until) {
        throw new IllegalStateException("did not become leader");
      }
      Thread.sleep(20);
    }
  }

  /** Settings for {@code netbox}: scope bmc, prune on, pages of 1,000, fast retries. */
  static NetBoxSettings settings(FakeNetBox netbox) {
    return settings(
        netbox.url(), NetBoxSettings.Scope.BMC, true, NetBoxSettings.ReportBack.OFF, null);
  }

  static NetBoxSettings settings(
      URI url,
      NetBoxSettings.Scope scope,
      boolean prune,
      NetBoxSettings.ReportBack reportBack,
      WebhookSecret secret) {
    return new NetBoxSettings(
        url,
        NetBoxToken.parse(FakeNetBox.TOKEN, "test"),
        null,
        NetBoxFilters.NONE,
        Duration.ofHours(1),
        null,
        1000,
        scope,
        prune,
        Duration.ofSeconds(10),
        new NetBoxClient.Retry(3, Duration.ofMillis(50), Duration.ofSeconds(5)),
        reportBack,
        secret,
        1000,
        Set.of());
  }

  static NetBoxClient client(NetBoxSettings s) {
    return new NetBoxClient(
        s.url(), s.token(), s.caFile(), s.timeout(), s.retry(), Clock.systemUTC());
  }

  /** A source (not started) for {@code settings}, leading through this inventory's election. */
  NetBoxSource source(NetBoxSettings settings) {
    return new NetBoxSource(
        settings, client(settings), store, cache, election, registry, Clock.systemUTC());
  }

  /**
   * One pull with {@code settings}, fenced by this inventory's leadership; the test fails unless
   * the pull was complete.
   */
  PullReport pull(NetBoxSettings settings) {
    PullReport r =
        new NetBoxPull(
                settings,
                client(settings),
                store,
                cache,
                Clock.systemUTC(),
                SyncConflicts.on(registry))
            .run(false, election.fence().orElseThrow());
    assertThat(r.complete()).as("complete pull: %s", r.errors()).isTrue();
    return r;
  }

  /** The nodes by id, as the cache shows them once it caught up with etcd. */
  Map<String, Node> nodes() throws InterruptedException {
    cache.awaitRevision(store.currentRevision(), Duration.ofSeconds(10));
    return cache.nodes().stream().collect(Collectors.toMap(Node::id, Function.identity()));
  }

  long revision() {
    return store.currentRevision();
  }

  @Override
  public void close() {
    election.close();
    cache.close();
    client.close();
  }
}
