package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.net.testing.RedirectTrap;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A NetBox that answers {@code 302} to another origin (finding 5 of issue 30): the client follows
 * nothing, tries no second time, the other origin receives not even a connection, and the error
 * names the origin it refused.
 */
class NetBoxRedirectAttackTest {

  @Test
  void attack_netboxRedirectToOtherOrigin() throws Exception {
    try (RedirectTrap trap = RedirectTrap.start()) {
      NetBoxClient client =
          new NetBoxClient(
              URI.create(trap.allowedOrigin()),
              NetBoxToken.parse("0123456789abcdef0123456789abcdef01234567", "test"),
              null,
              Duration.ofSeconds(5),
              new NetBoxClient.Retry(3, Duration.ofMillis(10), Duration.ofSeconds(1)),
              Clock.systemUTC());
      assertThatThrownBy(() -> client.get("/api/dcim/devices/?limit=50"))
          .isInstanceOf(NetBoxException.class)
          .hasMessageContaining("refused redirect to another origin " + trap.otherOrigin())
          .hasMessageNotContaining("0123456789abcdef");
      assertThat(trap.allowedRequests()).isEqualTo(1);
      assertThat(trap.otherConnections()).isZero();
    }
  }
}
