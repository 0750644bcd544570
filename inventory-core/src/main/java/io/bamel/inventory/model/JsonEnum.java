package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/**
 * An enum whose constants have a JSON name distinct from the Java one: the constant's name in
 * lowercase, with dashes for underscores ({@code POWER_OFF_FORCE} is {@code power-off-force}).
 * Jackson writes that name ({@link JsonValue}) and reads it back through {@link
 * JsonEnumDeserializer}, named once here for every enum and every mapper; a name that is no
 * constant's fails naming the field and the accepted values. The JSON name follows the Java name,
 * so renaming a constant changes the wire (the golden API-fields test and the etcd schema test
 * catch it).
 *
 * <p>Each enum still overrides {@code toString()} to return {@link #json()}, one line: Java lets no
 * interface method override a class's, so a default method here cannot do it.
 */
@JsonDeserialize(using = JsonEnumDeserializer.class)
public interface JsonEnum {

  /** The name used in JSON, in the API and in etcd. */
  @JsonValue
  default String json() {
    Enum<?> constant = (Enum<?>) this;
    return Enums.jsonNames(constant.getDeclaringClass())[constant.ordinal()];
  }

  /**
   * The constant of {@code type} named {@code text} in JSON, for Java callers (Jackson reads
   * through {@link JsonEnumDeserializer}).
   *
   * @throws InvalidInputException naming the accepted values when there is none, on a field named
   *     after the type ({@code desiredPower})
   */
  static <E extends Enum<E> & JsonEnum> E fromJson(Class<E> type, String text) {
    return Enums.parse(type.getEnumConstants(), text, Enums.field(type));
  }
}
