package io.bamel.inventory.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when an input fails validation. It is raised before anything is written, so a caller that
 * sees it knows nothing changed. {@link #errors()} lists every invalid field.
 */
public final class InvalidInputException extends IllegalArgumentException {

  private final transient List<FieldError> errors;

  /** An exception listing the given field errors (at least one). */
  public InvalidInputException(List<FieldError> errors) {
    super(
        errors.stream().map(e -> e.field() + ": " + e.message()).collect(Collectors.joining("; ")));
    this.errors = List.copyOf(errors);
  }

  /** An exception for a single invalid field. */
  public InvalidInputException(String field, String message) {
    this(List.of(new FieldError(field, message)));
  }

  /** Every invalid field, in the order found. */
  public List<FieldError> errors() {
    return errors;
  }
}
