package io.bamel.inventory.api.security;

import io.bamel.inventory.sync.PowerControlFields;
import io.javalin.security.RouteRole;
import java.util.Locale;

/**
 * What a route requires of the caller's token. Scopes are cumulative, {@code read < write < bmc <
 * admin}: a {@code write} token can read, a {@code bmc} token can do what {@code write} can and
 * also decide where and how a node's power is driven, an {@code admin} token can do everything.
 */
public enum Access implements RouteRole {
  /** No token needed (health, readiness, the OpenAPI document and its page). */
  PUBLIC,
  /** Scope {@code read}: every GET of the inventory, the watch, the metrics. */
  READ,
  /**
   * Scope {@code write}: node writes, power requests, DCIM sync, as long as they leave the
   * power-control fields ({@link PowerControlFields}) alone.
   */
  WRITE,
  /**
   * Scope {@code bmc}: what {@code write} allows, plus creating a node with power-control fields or
   * changing them ({@code mgmtAddress}, {@code bmcCredentials}, {@code bmcTls}, {@code
   * powerInterface}, {@code wakeOnLan}, {@code proxmox}, {@code kubernetesNodeName}): these decide
   * where bamel sends a BMC credential, what it runs and which Kubernetes node it acts on.
   */
  BMC,
  /** Scope {@code admin}: pool writes and forced deletes, and everything else. */
  ADMIN;

  /** Whether a caller holding {@code scope} may use a route requiring this access. */
  public boolean grantedBy(Access scope) {
    return scope.ordinal() >= ordinal();
  }

  /** The scope's name in tokens files and messages: {@code read}, {@code write}, ... */
  public String scopeName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
