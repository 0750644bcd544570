package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.net.RedirectRefusedException;
import io.bamel.net.testing.RedirectTrap;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A Prometheus (or whatever answers at its address) that answers {@code 302} to another origin
 * (finding 5 of issue 30): the query follows nothing, the other origin receives not even a
 * connection, and the failure names the origin it refused.
 */
class PrometheusRedirectAttackTest {

  @Test
  void attack_prometheusRedirectToOtherOrigin() throws Exception {
    try (RedirectTrap trap = RedirectTrap.start()) {
      PrometheusHttp prometheus =
          new PrometheusHttp(URI.create(trap.allowedOrigin()), Duration.ofSeconds(5));
      assertThatThrownBy(() -> prometheus.query("sum(up)"))
          .isInstanceOf(RedirectRefusedException.class)
          .hasMessageStartingWith("refused redirect to another origin " + trap.otherOrigin());
      assertThat(trap.allowedRequests()).isEqualTo(1);
      assertThat(trap.otherConnections()).isZero();
    }
  }
}
