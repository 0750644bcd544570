package io.bamel.inventory.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects field errors while a record is checked, so that one response names every invalid field
 * at once. Paths are joined with dots: {@code at("resources").at("cpu")}.
 */
public final class Validator {

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
  public Validator at(String field) {
    return new Validator(path(field), errors);
  }

  /** Records an error on {@code field}. */
  public void error(String field, String message) {
    errors.add(new FieldError(path(field), message));
  }

  /** Records an error on {@code field} when {@code condition} does not hold. */
  public void check(boolean condition, String field, String message) {
    if (!condition) {
      error(field, message);
    }
  }

  /** Whether any error was recorded (through this validator or any nested view). */
  public boolean hasErrors() {
    return !errors.isEmpty();
  }

  /** Throws {@link InvalidInputException} if any error was recorded. */
  public void throwIfInvalid() {
    if (!errors.isEmpty()) {
      throw new InvalidInputException(errors);
    }
  }

  private String path(String field) {
    return prefix.isEmpty() ? field : prefix + "." + field;
  }
}
