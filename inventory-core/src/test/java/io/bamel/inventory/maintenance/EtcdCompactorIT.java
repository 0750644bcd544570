package io.bamel.inventory.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The leader's compactor bounds etcd's history on real etcd, and only while it leads. */
class EtcdCompactorIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final ByteSequence KEY = ByteSequence.from("/baremetal/x", StandardCharsets.UTF_8);

  @Test
  void compactsOldRevisionsWhileLeadingAndKeepsCurrentValues() throws Exception {
    try (Client client = ETCD.cluster().client();
        EtcdCompactor compactor =
            new EtcdCompactor(client.getKVClient(), Duration.ofSeconds(1), Duration.ofSeconds(5))) {
      KV kv = client.getKVClient();
      long first = put(kv, "v1");
      put(kv, "v2");
      Thread.sleep(2_500);
      assertThat(compactor.lastCompactedRevision()).as("not leading: nothing compacted").isZero();
      assertThat(valueAt(kv, first)).isEqualTo("v1");

      compactor.gained(new WriteFence("/baremetal/leader/test", 1));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (compactor.lastCompactedRevision() <= first && System.nanoTime() < deadline) {
        put(kv, "v" + System.nanoTime());
        Thread.sleep(200);
      }
      assertThat(compactor.lastCompactedRevision()).isGreaterThan(first);
      assertThatThrownBy(() -> valueAt(kv, first)).hasMessageContaining("compacted");
      assertThat(kv.get(KEY).get(5, TimeUnit.SECONDS).getKvs()).hasSize(1);

      compactor.lost();
      long stoppedAt = compactor.lastCompactedRevision();
      put(kv, "after");
      Thread.sleep(2_500);
      assertThat(compactor.lastCompactedRevision()).isEqualTo(stoppedAt);
    }
  }

  private static long put(KV kv, String value) throws Exception {
    return kv.put(KEY, ByteSequence.from(value, StandardCharsets.UTF_8))
        .get(5, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  private static String valueAt(KV kv, long revision) throws Exception {
    return kv.get(KEY, GetOption.builder().withRevision(revision).build())
        .get(5, TimeUnit.SECONDS)
        .getKvs()
        .get(0)
        .getValue()
        .toString(StandardCharsets.UTF_8);
  }
}
