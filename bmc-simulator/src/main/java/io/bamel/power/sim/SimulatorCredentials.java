package io.bamel.power.sim;

import io.bamel.power.credentials.AllowedHosts;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Credentials;

/**
 * The credentials a Redfish client of a simulated fleet uses, for tests and benchmarks: the user
 * and password of {@link SimSystemConfig#defaults()}, under any credential name.
 */
public final class SimulatorCredentials {

  private static final SimSystemConfig DEFAULTS = SimSystemConfig.defaults();

  /**
   * For a fleet served over plain HTTP ({@code SimulatedBmcFleet.start(false)}): the allow-list
   * says so ({@code http://127.0.0.1}), as a site's would, so the driver sends the secret there and
   * nowhere else.
   */
  public static final CredentialSource PLAIN_HTTP =
      new CredentialSource() {
        @Override
        public Credentials credentials(String name) {
          return Credentials.of(DEFAULTS.username(), DEFAULTS.password());
        }

        @Override
        public AllowedHosts allowedHosts(String name) {
          return AllowedHosts.parse("http://127.0.0.1\n");
        }
      };

  private SimulatorCredentials() {}
}
