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

  /**
   * Records on {@code field} why {@code address} is not an address the model accepts for {@code
   * mgmtAddress} (a {@code host[:port]} or an {@code http(s)} URL), when it is not. The model owns
   * the address rule; an interface whose settings name an address checks it here, with the same
   * words.
   */
  void checkAddress(String field, String address);

  /** Records an error on {@code field} when {@code condition} does not hold. */
  default void check(boolean condition, String field, String message) {
    if (!condition) {
      error(field, message);
    }
  }
}
