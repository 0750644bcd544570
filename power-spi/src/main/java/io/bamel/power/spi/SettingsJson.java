package io.bamel.power.spi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.stream.Collectors;

/**
 * Reads a power interface's settings (the JSON value of its spec field) into its own settings type,
 * turning a wrong type into a field error that names the field and the expected kind of value, not
 * a Java type: {@code ipmi.cipherSuite: must be a number}. Also turns the model's values into JSON
 * for {@link NodeFacts#field}.
 */
public final class SettingsJson {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .build();

  private SettingsJson() {}

  /**
   * {@code settings} as a {@code type}, or {@code null} after recording on {@code checks} (nested
   * under the settings field) what is wrong with it.
   */
  public static <T> T read(JsonNode settings, Class<T> type, FieldChecks checks) {
    if (settings == null || settings.isNull()) {
      return null;
    }
    if (!settings.isObject()) {
      checks.error("", "must be an object");
      return null;
    }
    try {
      return MAPPER.treeToValue(settings, type);
    } catch (MismatchedInputException e) {
      String field = path(e);
      if (e.getMessage() != null && e.getMessage().startsWith("Unrecognized field")) {
        checks.error(field, "is not a field of these settings");
      } else {
        checks.error(field, "must be " + kind(e.getTargetType()));
      }
      return null;
    } catch (JsonProcessingException | IllegalArgumentException e) {
      checks.error(path(e), "is not valid here");
      return null;
    }
  }

  /** {@code value} (a record, map, string, number...) as JSON; {@code null} for null. */
  public static JsonNode toJson(Object value) {
    return value == null ? null : MAPPER.valueToTree(value);
  }

  private static String path(Exception e) {
    if (!(e instanceof JsonMappingException m)) {
      return "";
    }
    return m.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : String.valueOf(r.getIndex()))
        .collect(Collectors.joining("."));
  }

  private static String kind(Class<?> type) {
    if (type == null) {
      return "a value of another kind";
    }
    if (Number.class.isAssignableFrom(type) || type.isPrimitive() && type != boolean.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type.isArray() || Iterable.class.isAssignableFrom(type)) {
      return "a list";
    }
    return "an object";
  }
}
