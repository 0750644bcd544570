package io.bamel.power.credentials;

import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;

/**
 * Resolves a credential name (a node's {@code bmcCredentials}) to the secret, and says where that
 * secret may be sent. Implementations read the secret when asked, so that a rotated Secret is
 * picked up without a restart.
 *
 * <p>Drivers obtain a secret only through {@link #credentials(String, Destination)}, which checks
 * the destination against {@link #allowedHosts(String)} first: a credential never leaves the
 * process for a host its allow-list does not name.
 */
@FunctionalInterface
public interface CredentialSource {

  /**
   * The credentials named {@code name}, without any destination check (drivers use {@link
   * #credentials(String, Destination)}).
   *
   * @throws io.bamel.power.TerminalPowerException {@link PowerException.Reason#BAD_CREDENTIALS}
   *     when there is no such credential or it cannot be read
   */
  Credentials credentials(String name) throws PowerException;

  /**
   * Where the credential {@code name} may be sent. The default is {@link AllowedHosts#absent
   * AllowedHosts.absent(false)}: any host, but only over https with the certificate verified.
   *
   * @throws TerminalPowerException {@link PowerException.Reason#NOT_ALLOWED} when the allow-list
   *     cannot be read or is malformed
   */
  default AllowedHosts allowedHosts(String name) throws PowerException {
    return AllowedHosts.absent(false);
  }

  /**
   * Checks that credential {@code name} may be sent to {@code destination}.
   *
   * @throws TerminalPowerException {@link PowerException.Reason#NOT_ALLOWED} naming the credential,
   *     the address and the reason (never the secret)
   */
  default void checkDestination(String name, Destination destination) throws PowerException {
    AllowedHosts.Verdict verdict =
        allowedHosts(name)
            .check(
                destination.scheme(),
                destination.host(),
                destination.addresses(),
                destination.insecureSkipVerify());
    if (!verdict.allowed()) {
      throw new TerminalPowerException(
          PowerException.Reason.NOT_ALLOWED,
          "credential '"
              + name
              + "' may not be sent to "
              + destination.describe()
              + ": "
              + verdict.reason());
    }
  }

  /**
   * The credentials named {@code name}, for sending to {@code destination} only: checks the
   * destination ({@link #checkDestination}) before reading the secret.
   */
  default Credentials credentials(String name, Destination destination) throws PowerException {
    checkDestination(name, destination);
    return credentials(name);
  }

  /** A source that has no credential at all. */
  static CredentialSource none() {
    return name -> Credentials.of(null, null);
  }
}
