package io.bamel.inventory.model;

import io.bamel.power.spi.FieldChecks;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects field errors while a record is checked, so that one response names every invalid field
 * at once. Paths are joined with dots: {@code at("resources").at("cpu")}.
 */
public final class Validator implements FieldChecks {

  private final String prefix;
  private final List<FieldError> errors;

  /** A fresh validator with no errors. */
  public Validator() {
    this("", new ArrayList<>());
  }

  private Validator(String prefix, List<FieldError> errors) {
    this.prefix = prefix;
    this.errors = errors;
  }

  /** A view of this validator whose fields are nested under {@code field}. */
  @Override
  public Validator at(String field) {
    return new Validator(path(field), errors);
  }

  /** Records an error on {@code field} (the nested path itself when empty). */
  @Override
  public void error(String field, String message) {
    errors.add(new FieldError(path(field), message));
  }

  /** Records why {@code address} is not a management address ({@link ManagementAddress}). */
  @Override
  public void checkAddress(String field, String address) {
    String problem = ManagementAddress.problem(address);
    check(problem == null, field, problem);
  }

  /** Records an error on {@code field} when {@code condition} does not hold. */
  @Override
  public void check(boolean condition, String field, String message) {
    if (!condition) {
      error(field, message);
    }
  }

  /** Whether any error was recorded (through this validator or any nested view). */
  public boolean hasErrors() {
    return !errors.isEmpty();
  }

  /** The errors recorded so far (through this validator or any nested view). */
  public List<FieldError> errors() {
    return List.copyOf(errors);
  }

  /** Throws {@link InvalidInputException} if any error was recorded. */
  public void throwIfInvalid() {
    if (!errors.isEmpty()) {
      throw new InvalidInputException(errors);
    }
  }

  private String path(String field) {
    if (field.isEmpty()) {
      return prefix;
    }
    return prefix.isEmpty() ? field : prefix + "." + field;
  }
}
