package io.bamel.power;

import io.bamel.power.credentials.CredentialSource;
import java.util.Map;
import java.util.Optional;

/**
 * What the server hands every {@link PowerDriverFactory}: the credential source, and the
 * interface-specific parts of its configuration by type (the Wake-on-LAN power-off commands, say),
 * so this record names no interface.
 *
 * @param credentials where drivers resolve a node's credential name
 * @param parts configuration objects by their class; a factory takes the one it knows
 */
public record DriverContext(CredentialSource credentials, Map<Class<?>, Object> parts) {

  /** Copies the parts. */
  public DriverContext {
    parts = Map.copyOf(parts);
  }

  /** A context with credentials only. */
  public static DriverContext of(CredentialSource credentials) {
    return new DriverContext(credentials, Map.of());
  }

  /** The configuration part of class {@code type}, if the server gave one. */
  public <T> Optional<T> part(Class<T> type) {
    return Optional.ofNullable(parts.get(type)).map(type::cast);
  }
}
