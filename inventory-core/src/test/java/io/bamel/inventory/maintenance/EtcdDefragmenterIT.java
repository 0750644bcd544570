package io.bamel.inventory.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.bamel.inventory.store.WriteFence;
import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.maintenance.StatusResponse;
import io.etcd.jetcd.options.DeleteOption;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * The leader's defragmenter returns freed pages to the file system on real etcd, once per rule, and
 * leaves a member above its size limit to the operator with a WARN.
 */
class EtcdDefragmenterIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final String PREFIX = "/baremetal/defrag/";

  @Test
  void defragmentsAMemberWithFreePagesOnlyWhileLeadingAtMostOncePerIntervalAndUpToItsSizeLimit()
      throws Exception {
    try (Client client = ETCD.cluster().client()) {
      KV kv = client.getKVClient();
      ETCD.cluster().compact(writeAndDelete(kv));
      String endpoint = ETCD.cluster().endpoints().get(0);
      StatusResponse before = status(client, endpoint);
      long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (before.getDbSize() - before.getDbSizeInUse() <= 1L << 20
          && System.nanoTime() < settle) {
        // Freed pages count as free once a later commit finds no reader holding them: write.
        kv.put(bytes("/baremetal/tick"), bytes("x")).get(5, TimeUnit.SECONDS);
        Thread.sleep(200);
        before = status(client, endpoint);
      }
      assertThat(before.getDbSize() - before.getDbSizeInUse()).isGreaterThan(1L << 20);

      DefragRule rule = new DefragRule(1L << 20, 0, 0.3, 0, Duration.ofHours(1));
      DefragRule tooSmallALimit =
          new DefragRule(1L << 20, before.getDbSize() - 1, 0.3, 0, Duration.ofHours(1));
      Logger logger = (Logger) LoggerFactory.getLogger(EtcdDefragmenter.class);
      ListAppender<ILoggingEvent> log = new ListAppender<>();
      log.start();
      logger.addAppender(log);
      try (EtcdDefragmenter leftAlone =
          new EtcdDefragmenter(
              client.getMaintenanceClient(),
              List.of(endpoint),
              tooSmallALimit,
              Duration.ofMillis(200),
              Duration.ofSeconds(5),
              Clock.systemUTC())) {
        leftAlone.gained(new WriteFence("/baremetal/leader/test", 1));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (log.list.isEmpty() && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        assertThat(leftAlone.defragmentations()).as("above maxDbSizeBytes: left alone").isZero();
        assertThat(log.list)
            .singleElement()
            .satisfies(
                e -> {
                  assertThat(e.getLevel()).isEqualTo(Level.WARN);
                  assertThat(e.getFormattedMessage())
                      .contains(endpoint, "storage.defrag.maxDbSizeBytes", "bamel etcd defrag");
                });
      } finally {
        logger.detachAppender(log);
      }
      assertThat(status(client, endpoint).getDbSize()).isEqualTo(before.getDbSize());

      try (EtcdDefragmenter defrag =
          new EtcdDefragmenter(
              client.getMaintenanceClient(),
              List.of(endpoint),
              rule,
              Duration.ofMillis(200),
              Duration.ofSeconds(5),
              Clock.systemUTC())) {
        Thread.sleep(600);
        assertThat(defrag.defragmentations()).as("not leading: nothing done").isZero();

        defrag.gained(new WriteFence("/baremetal/leader/test", 1));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (defrag.defragmentations() == 0 && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        assertThat(defrag.defragmentations()).isEqualTo(1);
        StatusResponse after = status(client, endpoint);
        assertThat(after.getDbSize()).isLessThan(before.getDbSize() - (1L << 20));

        // Free pages again: the rule's interval (an hour) holds the next one back.
        ETCD.cluster().compact(writeAndDelete(kv));
        Thread.sleep(600);
        assertThat(defrag.defragmentations()).isEqualTo(1);
      }
    }
  }

  /** Writes 2 MiB under a prefix and deletes it; returns the revision of the delete. */
  private static long writeAndDelete(KV kv) throws Exception {
    ByteSequence value = ByteSequence.from(new byte[8 * 1024]);
    List<CompletableFuture<?>> puts = new ArrayList<>();
    for (int i = 0; i < 256; i++) {
      puts.add(kv.put(bytes(PREFIX + i), value));
    }
    CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    return kv.delete(bytes(PREFIX), DeleteOption.builder().isPrefix(true).build())
        .get(10, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  private static StatusResponse status(Client client, String endpoint) throws Exception {
    return client.getMaintenanceClient().statusMember(endpoint).get(5, TimeUnit.SECONDS);
  }
}
