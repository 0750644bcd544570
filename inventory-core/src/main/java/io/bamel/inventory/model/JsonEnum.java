package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * An enum whose constants have a JSON name distinct from the Java one: the constant's name in
 * lowercase, with dashes for underscores ({@code POWER_OFF_FORCE} is {@code power-off-force}).
 * Jackson writes that name ({@link JsonValue}); each enum reads it back through its {@code
 * fromJson} factory, which names the field and the accepted values in its error. The JSON name
 * follows the Java name, so renaming a constant changes the wire (the golden API-fields test and
 * the etcd schema test catch it).
 */
public interface JsonEnum {

  /** The name used in JSON, in the API and in etcd. */
  @JsonValue
  default String json() {
    Enum<?> constant = (Enum<?>) this;
    return Enums.jsonNames(constant.getDeclaringClass())[constant.ordinal()];
  }
}
