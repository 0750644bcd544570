package io.bamel.inventory.model;

/**
 * Who owns a node's desired power state: its pool's controller ({@code pool}) or an operator
 * ({@code manual}).
 */
public enum PowerPolicy implements JsonEnum {
  POOL,
  MANUAL;

  @Override
  public String toString() {
    return json();
  }
}
