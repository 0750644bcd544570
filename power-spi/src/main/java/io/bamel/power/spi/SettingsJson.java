package io.bamel.power.spi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads a power interface's settings (the JSON value of its spec field) into its own settings type,
 * as strictly as the API reads the rest of a spec (no {@code "7"} for a number, no {@code 7} for a
 * text) and with the API's words for a wrong value: {@code ipmi.cipherSuite: must be a whole
 * number}, never a Java type. Also turns a settings record or the model's values into JSON, absent
 * values omitted, and loads an interface's JSON schema from a resource beside it.
 */
public final class SettingsJson {

  /** The catch-all component of a settings record that keeps members it does not declare. */
  public static final String EXTENSIONS = "extensions";

  private static final ObjectMapper MAPPER = create();

  private SettingsJson() {}

  private static ObjectMapper create() {
    JsonMapper mapper =
        JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .defaultPropertyInclusion(
                JsonInclude.Value.construct(
                    JsonInclude.Include.NON_NULL, JsonInclude.Include.USE_DEFAULTS))
            .build();
    return refuseScalarCoercions(mapper);
  }

  /**
   * Makes {@code mapper} refuse what JSON input must not be coerced into: a number or boolean for a
   * string, a string, float or boolean for a whole number, a string or boolean for a number, a
   * string or number for a boolean, and an empty string for any of them. The API's input mapper
   * uses the same rules, so settings and the rest of a spec refuse the same values.
   */
  public static JsonMapper refuseScalarCoercions(JsonMapper mapper) {
    fail(mapper, LogicalType.Textual, CoercionInputShape.Integer, CoercionInputShape.Float);
    fail(mapper, LogicalType.Textual, CoercionInputShape.Boolean);
    fail(mapper, LogicalType.Integer, CoercionInputShape.String, CoercionInputShape.Float);
    fail(mapper, LogicalType.Integer, CoercionInputShape.Boolean, CoercionInputShape.EmptyString);
    fail(mapper, LogicalType.Float, CoercionInputShape.String, CoercionInputShape.Boolean);
    fail(mapper, LogicalType.Float, CoercionInputShape.EmptyString);
    fail(mapper, LogicalType.Boolean, CoercionInputShape.String, CoercionInputShape.Integer);
    fail(mapper, LogicalType.Boolean, CoercionInputShape.EmptyString);
    return mapper;
  }

  private static void fail(JsonMapper mapper, LogicalType type, CoercionInputShape... shapes) {
    for (CoercionInputShape shape : shapes) {
      mapper.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
    }
  }

  /**
   * {@code settings} as a {@code type}, or {@code null} after recording on {@code checks} (nested
   * under the settings field) what is wrong with it. {@code null} too when {@code settings} is.
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
    } catch (JsonProcessingException e) {
      checks.error(path(e), problem(e));
      return null;
    } catch (IllegalArgumentException e) {
      checks.error("", "cannot be read as the value this field takes");
      return null;
    }
  }

  /**
   * {@code settings} as a {@code type} for reading only (a node's stored, already checked
   * settings), or {@code null} when unset or unreadable.
   */
  public static <T> T readOrNull(JsonNode settings, Class<T> type) {
    if (settings == null || !settings.isObject()) {
      return null;
    }
    try {
      return MAPPER.treeToValue(settings, type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The members of {@code settings} that the settings record {@code type} does not declare: what
   * its {@code extensions} would keep, and a member literally named {@code extensions}. The model
   * keeps them (a newer bamel may have written them); the API refuses them as unknown fields.
   */
  public static List<String> unknownMembers(JsonNode settings, Class<? extends Record> type) {
    if (settings == null || !settings.isObject()) {
      return List.of();
    }
    Set<String> declared =
        java.util.Arrays.stream(type.getRecordComponents())
            .map(RecordComponent::getName)
            .filter(n -> !n.equals(EXTENSIONS))
            .collect(Collectors.toSet());
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, JsonNode> member : settings.properties()) {
      if (!declared.contains(member.getKey())) {
        unknown.add(member.getKey());
      }
    }
    return unknown;
  }

  /**
   * {@code value} (a record, map, string, number...) as JSON, nulls omitted; {@code null} for null.
   */
  public static JsonNode toJson(Object value) {
    return value == null ? null : MAPPER.valueToTree(value);
  }

  /**
   * The JSON schema in the resource {@code name} beside {@code owner} (its package's directory):
   * where an interface keeps the schema of its settings object, written once, by hand.
   *
   * @throws IllegalStateException when the resource is missing
   */
  public static JsonNode schema(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name + " beside " + owner.getName());
      }
      return MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String path(Exception e) {
    if (!(e instanceof JsonMappingException m)) {
      return "";
    }
    return m.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : String.valueOf(r.getIndex()))
        .collect(Collectors.joining("."));
  }

  /** The API's words for what is wrong (as its JSON error texts: the same field, the same text). */
  private static String problem(JsonProcessingException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InputCoercionException coercion) {
        Class<?> type = coercion.getTargetType();
        if (type == Integer.class || type == Integer.TYPE) {
          return "must be a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        }
        return "is out of range for " + typeWord(type);
      }
    }
    if (e instanceof UnrecognizedPropertyException) {
      return "is not a field of these settings";
    }
    if (e instanceof MismatchedInputException mismatch) {
      return "must be " + typeWord(mismatch.getTargetType());
    }
    return "cannot be read as the value this field takes";
  }

  /**
   * What a value of {@code type} is, in words (a string, a whole number, a number, true or false,
   * an array, an object), for error texts that name no Java type.
   */
  public static String typeWord(Class<?> type) {
    if (type == null) {
      return "a value of another type";
    }
    if (CharSequence.class.isAssignableFrom(type) || type == Character.class) {
      return "a string";
    }
    if (type == Integer.class
        || type == Integer.TYPE
        || type == Long.class
        || type == Long.TYPE
        || type == Short.class
        || type == java.math.BigInteger.class) {
      return "a whole number";
    }
    if (Number.class.isAssignableFrom(type) || type == Double.TYPE || type == Float.TYPE) {
      return "a number";
    }
    if (type == Boolean.class || type == Boolean.TYPE) {
      return "true or false";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    return Map.class.isAssignableFrom(type) || type.isRecord() ? "an object" : "another type";
  }
}
