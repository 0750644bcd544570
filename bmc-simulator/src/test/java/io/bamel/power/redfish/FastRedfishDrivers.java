package io.bamel.power.redfish;

import io.bamel.power.Backoff;
import io.bamel.power.Sleeper;
import io.bamel.power.credentials.CredentialStore;
import java.time.Clock;
import java.time.Duration;

/**
 * The Redfish driver the integration tests run against simulated BMCs: it polls every 50 ms and
 * retries a busy BMC after 20 ms (doubling to 200 ms, six times), so a test waits milliseconds
 * where the defaults wait seconds.
 */
final class FastRedfishDrivers {

  private FastRedfishDrivers() {}

  /** A driver on {@code base} with the fast timing above and this graceful-off timeout. */
  static RedfishDriver fast(CredentialStore store, RedfishConfig base, Duration gracefulTimeout) {
    return new RedfishDriver(
        store,
        base.withGracefulTimeout(gracefulTimeout)
            .withPollInterval(Duration.ofMillis(50))
            .withBusyBackoff(new Backoff(Duration.ofMillis(20), Duration.ofMillis(200), 6)),
        Clock.systemUTC(),
        Sleeper.SYSTEM);
  }
}
