package io.bamel.power.spi;

/**
 * Where a power interface records what is wrong with a node's fields, so that one answer names
 * every invalid field at once. Field paths are joined with dots: {@code at("ipmi")} then {@code
 * error("cipherSuite", ...)} reports {@code ipmi.cipherSuite}. The model's validator implements it.
 */
public interface FieldChecks {

  /** A view whose fields are nested under {@code field}. */
  FieldChecks at(String field);

  /** Records an error on {@code field}. */
  void error(String field, String message);

  /** Records an error on {@code field} when {@code condition} does not hold. */
  default void check(boolean condition, String field, String message) {
    if (!condition) {
      error(field, message);
    }
  }
}
