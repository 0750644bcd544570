package io.bamel.inventory.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The reconnector's decisions on a fake clock (seconds as nanoseconds). */
class ReachabilityTest {

  static long s(double seconds) {
    return (long) (seconds * 1e9);
  }

  final Reachability r = new Reachability(Duration.ofMillis(500), Duration.ofSeconds(2));

  @Test
  void anOutageWithoutAnyReachableEndpointIsLoggedAtItsStartAndEndWithItsLength() {
    assertThat(r.connected(s(0))).isEmpty();
    assertThat(r.disconnected(s(10), false)).isEmpty(); // connecting: not known to be down yet
    assertThat(r.disconnected(s(10.3), true))
        .hasValue(
            "etcd unreachable: no endpoint accepts a connection (0.3 s since the connection"
                + " broke); reconnecting as soon as one answers, at least every 2.0 s");
    assertThat(r.disconnected(s(12), true)).as("one WARN per outage").isEmpty();
    assertThat(r.disconnected(s(20), false)).isEmpty();
    assertThat(r.connected(s(41.25))).hasValue("etcd reachable again after 31.3 s");
    assertThat(r.connected(s(42))).as("one INFO per outage").isEmpty();
  }

  @Test
  void aConnectionThatMovedToAnotherMemberIsNoOutage() {
    assertThat(r.disconnected(s(5), false)).isEmpty();
    assertThat(r.disconnected(s(5.02), false)).isEmpty();
    assertThat(r.connected(s(5.05))).isEmpty();
  }

  @Test
  void endpointsAreProbedEveryIntervalOnlyWhileNoneIsReachable() {
    r.disconnected(s(1), false);
    assertThat(r.probeDue(s(1))).as("still connecting elsewhere").isFalse();
    r.disconnected(s(1.1), true);
    assertThat(r.probeDue(s(1.1))).isTrue();
    assertThat(r.probeDue(s(1.4))).isFalse();
    assertThat(r.probeDue(s(1.6))).isTrue();
    r.connected(s(2));
    assertThat(r.probeDue(s(3))).isFalse();
  }

  @Test
  void theChannelReconnectsWhenAnEndpointAnswersAndAtLeastEveryMaxDelay() {
    r.disconnected(s(0), true);
    assertThat(r.reconnectNow(s(0.5), false)).isFalse();
    assertThat(r.reconnectNow(s(1.0), true)).as("an endpoint answers").isTrue();
    assertThat(r.reconnectNow(s(1.5), false)).isFalse();
    assertThat(r.reconnectNow(s(2.9), false)).isFalse();
    assertThat(r.reconnectNow(s(3.0), false)).as("2 s since the last attempt").isTrue();
  }

  @Test
  void aMaxDelayBelowTheProbeIntervalIsRefused() {
    assertThatThrownBy(() -> new Reachability(Duration.ofSeconds(1), Duration.ofMillis(500)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
