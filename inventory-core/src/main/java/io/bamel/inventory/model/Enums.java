package io.bamel.inventory.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The JSON names of {@link JsonEnum} constants, computed once per enum, and their parsing. */
final class Enums {

  private static final ClassValue<String[]> JSON_NAMES =
      new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
          return Arrays.stream(type.getEnumConstants())
              .map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT).replace('_', '-'))
              .toArray(String[]::new);
        }
      };

  private Enums() {}

  /** The JSON names of {@code type}'s constants, by ordinal. */
  static String[] jsonNames(Class<?> type) {
    return JSON_NAMES.get(type);
  }

  /**
   * The field a value of enum {@code type} is reported on when it has none: {@code desiredPower}.
   */
  static String field(Class<?> type) {
    String name = type.getSimpleName();
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }

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
