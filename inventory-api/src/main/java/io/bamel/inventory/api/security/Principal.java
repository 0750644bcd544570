package io.bamel.inventory.api.security;

/**
 * Who made a request: the name of the token's owner (from the tokens file) and its scope, or {@code
 * anonymous} with read scope when anonymous reading is configured. The name is recorded in the
 * events of the nodes the request changes; the token itself is never recorded.
 */
public record Principal(String name, Access scope) {

  /** The caller without a token, when anonymous read is allowed. */
  public static final Principal ANONYMOUS = new Principal("anonymous", Access.READ);
}
