package io.bamel.inventory.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.testing.EtcdExtension;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A kept lease against a real etcd: renewed, gone when revoked elsewhere (etcd says so), revoked on
 * close.
 */
class KeptLeaseIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  static final Duration TTL = Duration.ofSeconds(1);
  static final ByteSequence KEY = ByteSequence.from("/test/kept", StandardCharsets.UTF_8);

  final ScheduledExecutorService owner = Executors.newSingleThreadScheduledExecutor();
  final AtomicInteger losses = new AtomicInteger();

  @AfterEach
  void stopOwner() throws InterruptedException {
    owner.shutdownNow();
    owner.awaitTermination(5, TimeUnit.SECONDS);
  }

  KeptLease lease(Client client) {
    return new KeptLease(client, TTL, Duration.ofSeconds(2), owner, losses::incrementAndGet);
  }

  @Test
  void aGrantedLeaseOutlivesItsTtlAndCloseDeletesItsKeys() throws Exception {
    Client client = ETCD.cluster().client();
    KeptLease lease = lease(client);
    assertThat(lease.needsGrant()).isTrue();
    long id = owner.submit(lease::grant).get();
    assertThat(lease.id()).isEqualTo(id).isNotZero();
    client.getKVClient().put(KEY, KEY, PutOption.builder().withLeaseId(id).build()).get();

    Thread.sleep(TTL.toMillis() * 2); // renewed by jetcd, so neither the key nor the lease expire
    assertThat(client.getKVClient().get(KEY).get().getKvs()).hasSize(1);
    assertThat(lease.overdue()).isFalse();
    assertThat(lease.needsGrant()).isFalse();

    owner.submit(lease::close).get();
    assertThat(client.getKVClient().get(KEY).get().getKvs()).isEmpty();
    assertThat(lease.id()).isZero();
    assertThat(lease.needsGrant()).isTrue();
    assertThat(losses).hasValue(0);
  }

  @Test
  void aLeaseRevokedElsewhereIsGoneOnceEtcdSaysSo() throws Exception {
    Client client = ETCD.cluster().client();
    KeptLease lease = lease(client);
    long id = owner.submit(lease::grant).get();

    client.getLeaseClient().revoke(id).get(); // as etcd does when the lease expires
    await().atMost(Duration.ofSeconds(5)).until(() -> losses.get() > 0);
    assertThat(lease.gone()).isTrue();
    assertThat(lease.overdue()).isTrue();
    assertThat(owner.submit(lease::reason).get()).startsWith("etcd says the lease is gone");

    long next = owner.submit(lease::grant).get();
    assertThat(next).isNotEqualTo(id);
    assertThat(lease.gone()).isFalse();
    assertThat(lease.overdue()).isFalse();
    owner.submit(lease::close).get();
  }

  @Test
  void aTtlUnderOneSecondIsRefused() {
    assertThatThrownBy(() -> new KeptLease(null, Duration.ofMillis(500), TTL, owner, () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1 s");
  }
}
