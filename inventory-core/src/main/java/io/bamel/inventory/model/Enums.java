package io.bamel.inventory.model;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Parsing of {@link JsonEnum} constants with a clear error. */
final class Enums {

  private Enums() {}

  /**
   * The constant of {@code values} whose JSON name is {@code text}.
   *
   * @throws InvalidInputException on {@code field}, naming the accepted values, when none is
   */
  static <E extends JsonEnum> E parse(E[] values, String text, String field) {
    for (E value : values) {
      if (value.json().equals(text)) {
        return value;
      }
    }
    throw new InvalidInputException(
        field,
        "unknown value "
            + Texts.quote(text)
            + "; expected one of "
            + Arrays.stream(values).map(JsonEnum::json).collect(Collectors.joining(", ")));
  }
}
