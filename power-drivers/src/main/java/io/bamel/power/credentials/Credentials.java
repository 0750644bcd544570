package io.bamel.power.credentials;

import java.util.Optional;

/**
 * A BMC's secret: a username with a password, or an API token, or both. {@link #toString()} never
 * shows the password or the token.
 *
 * @param username the user name, or {@code null}
 * @param password the password, or {@code null}
 * @param token an API token (Proxmox), or {@code null}
 */
public record Credentials(String username, String password, String token) {

  /** A username and password. */
  public static Credentials of(String username, String password) {
    return new Credentials(username, password, null);
  }

  /** The username, if any. */
  public Optional<String> user() {
    return Optional.ofNullable(username).filter(s -> !s.isEmpty());
  }

  /** The password, if any. */
  public Optional<String> secret() {
    return Optional.ofNullable(password).filter(s -> !s.isEmpty());
  }

  /** The token, if any. */
  public Optional<String> apiToken() {
    return Optional.ofNullable(token).filter(s -> !s.isEmpty());
  }

  @Override
  public String toString() {
    return "Credentials[username="
        + username
        + ", password="
        + (password == null ? "none" : "***")
        + ", token="
        + (token == null ? "none" : "***")
        + "]";
  }
}
