package io.bamel.inventory.store;

/**
 * A write would give a node a unique value (serial, MAC address, management address) that another
 * node holds: the index key of that value names {@link #holder()}. Not retried: the caller must
 * change the value or free it on the other node first.
 */
public final class DuplicateValueException extends InventoryException {

  private final String field;
  private final String value;
  private final String holder;

  /** {@code field} {@code value} is held by node {@code holder}. */
  public DuplicateValueException(String field, String value, String holder) {
    super(field + " " + value + " is already used by node " + holder);
    this.field = field;
    this.value = value;
    this.holder = holder;
  }

  /** The spec field: {@code serial}, {@code macAddress} or {@code mgmtAddress}. */
  public String field() {
    return field;
  }

  /** The value that is taken. */
  public String value() {
    return value;
  }

  /** The node that holds it. */
  public String holder() {
    return holder;
  }
}
