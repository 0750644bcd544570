package io.bamel.inventory.api;

import io.javalin.security.RouteRole;

/**
 * What a route requires of the caller's token. Scopes are cumulative: a {@code write} token can
 * read, an {@code admin} token can do everything.
 */
public enum Access implements RouteRole {
  /** No token needed (health, readiness, the OpenAPI document and its page). */
  PUBLIC,
  /** Scope {@code read}: every GET of the inventory, the watch, the metrics. */
  READ,
  /** Scope {@code write}: node writes, power requests, DCIM sync. */
  WRITE,
  /** Scope {@code admin}: pool writes and forced deletes. */
  ADMIN;

  /** Whether a caller holding {@code scope} may use a route requiring this access. */
  public boolean grantedBy(Access scope) {
    return scope.ordinal() >= ordinal();
  }
}
