package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reads that cover the whole fleet (the start-up index rebuild, a pool's members, the pool names)
 * are paged: they work through a client whose inbound message limit is far below what one unpaged
 * reply would need, as a 100,000-node fleet is far above gRPC's default 4 MiB.
 */
class PagedReadsIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final int NODES = 1_500;
  private static final int INBOUND_LIMIT = 64 * 1024;

  @Test
  void fleetWideReadsStayUnderTheClientsInboundLimit() throws Exception {
    try (Client writer = ETCD.cluster().client();
        Client small =
            Client.builder()
                .endpoints(ETCD.cluster().endpoints().toArray(String[]::new))
                .maxInboundMessageSize(INBOUND_LIMIT)
                .build()) {
      List<BatchItem> items = new ArrayList<>();
      for (int i = 0; i < NODES; i++) {
        items.add(BatchItem.upsert(TestNodes.id(i), TestNodes.spec(i, "big"), null));
      }
      new EtcdInventory(writer).upsertAll(items);
      ByteSequence index = ByteSequence.from(Keys.INDEX, StandardCharsets.UTF_8);
      long indexKeys =
          writer.getKVClient().get(index, prefix()).get(10, TimeUnit.SECONDS).getCount();
      assertThat(indexKeys).isEqualTo(3L * NODES);

      // The unpaged read that a restart used to make is refused by this client...
      assertThatThrownBy(() -> small.getKVClient().get(index, prefix()).get(10, TimeUnit.SECONDS))
          .hasMessageContaining("RESOURCE_EXHAUSTED");

      // ...while the store's paged reads go through it: drop a third of the index and rebuild.
      writer
          .getKVClient()
          .delete(
              ByteSequence.from(Keys.INDEX + "mac/", StandardCharsets.UTF_8),
              DeleteOption.builder().isPrefix(true).build())
          .get(10, TimeUnit.SECONDS);
      EtcdInventory paged =
          new EtcdInventory(small, new EtcdInventory.Options(Duration.ofSeconds(10), 100, 50));
      assertThat(paged.rebuildUniqueIndex()).isEqualTo(NODES);
      assertThat(writer.getKVClient().get(index, prefix()).get(10, TimeUnit.SECONDS).getCount())
          .isEqualTo(indexKeys);
      assertThat(paged.getPool("big").orElseThrow().members()).hasSize(NODES);
      assertThat(paged.poolNames()).containsExactly("big");
    }
  }

  private static GetOption prefix() {
    return GetOption.builder().isPrefix(true).withCountOnly(false).build();
  }
}
