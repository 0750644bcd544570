package io.bamel.power.credentials;

import io.bamel.power.PowerException;

/**
 * Resolves a credential name (a node's {@code bmcCredentials}) to the secret. Implementations read
 * the secret when asked, so that a rotated Secret is picked up without a restart.
 */
@FunctionalInterface
public interface CredentialSource {

  /**
   * The credentials named {@code name}.
   *
   * @throws io.bamel.power.TerminalPowerException {@link PowerException.Reason#BAD_CREDENTIALS}
   *     when there is no such credential or it cannot be read
   */
  Credentials credentials(String name) throws PowerException;

  /** A source that has no credential at all. */
  static CredentialSource none() {
    return name -> Credentials.of(null, null);
  }
}
