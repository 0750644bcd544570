package io.bamel.inventory.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.Texts;
import io.bamel.inventory.store.Codec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON for API input and output. Output uses the store's {@link Codec} mapper, so the API shows
 * what {@code etcdctl} shows. Input is stricter than what the store reads back: duplicate keys,
 * trailing tokens and type coercions ({@code "7"} for a number, {@code 7} for a text) are errors,
 * and fields the model does not know are rejected rather than kept ({@link UnknownFields}).
 */
public final class ApiJson {

  private static final ObjectMapper INPUT = createInput();

  private ApiJson() {}

  private static ObjectMapper createInput() {
    JsonMapper mapper =
        ((JsonMapper) Codec.mapper())
            .rebuild()
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build();
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

  /** The strict input mapper. */
  public static ObjectMapper input() {
    return INPUT;
  }

  /**
   * Parses a request body into a tree.
   *
   * @throws ApiException 400 when it is not one well-formed JSON value (duplicate keys included)
   */
  public static JsonNode parse(byte[] body) {
    if (body.length == 0) {
      throw Problems.malformed("the request has no body; a JSON document was expected");
    }
    try {
      JsonNode node = INPUT.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw Problems.malformed("the request body is empty");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw Problems.malformed(describe(e));
    } catch (IOException e) {
      throw Problems.malformed("the body cannot be read");
    }
  }

  /**
   * Converts a tree into {@code type}, rejecting unknown fields and wrong types with the field
   * named.
   *
   * @throws ApiException 400 on any problem
   */
  public static <T> T convert(JsonNode tree, Class<T> type) {
    if (!tree.isObject()) {
      throw Problems.invalid("", "must be a JSON object");
    }
    T value;
    try {
      value = INPUT.treeToValue(tree, type);
    } catch (JsonProcessingException e) {
      throw fieldProblem(e);
    } catch (IllegalArgumentException e) {
      throw Problems.invalid("", "cannot be read: " + Texts.quote(e.getMessage()));
    }
    List<FieldError> unknown = UnknownFields.find(value);
    if (!unknown.isEmpty()) {
      throw Problems.invalid("the request has fields bamel does not know", unknown);
    }
    return value;
  }

  /** Encodes an API response value. */
  public static byte[] write(Object value) {
    return Codec.encode(value);
  }

  private static ApiException fieldProblem(JsonProcessingException e) {
    Throwable cause = e.getCause();
    while (cause != null) {
      if (cause instanceof InvalidInputException invalid) {
        String prefix = path(e);
        List<FieldError> errors = new ArrayList<>();
        for (FieldError error : invalid.errors()) {
          errors.add(new FieldError(prefix.isEmpty() ? error.field() : prefix, error.message()));
        }
        return Problems.invalid("the request has an invalid field", errors);
      }
      cause = cause.getCause();
    }
    String field = path(e);
    return Problems.invalid(field.isEmpty() ? "" : field, describe(e));
  }

  /** The JSON path of a mapping error, such as {@code resources.cpu} or {@code labels[2]}. */
  static String path(JsonProcessingException e) {
    if (!(e instanceof JsonMappingException m)) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference ref : m.getPath()) {
      if (ref.getFieldName() != null) {
        if (!b.isEmpty()) {
          b.append('.');
        }
        b.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        b.append('[').append(ref.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  /** A short description of a JSON error without input excerpts beyond 64 characters. */
  static String describe(JsonProcessingException e) {
    String message = e.getOriginalMessage();
    if (message == null) {
      message = "invalid JSON";
    }
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    if (message.length() > 200) {
      message = message.substring(0, 200) + "...";
    }
    if (e.getLocation() != null && e.getLocation().getLineNr() > 0) {
      message +=
          " (line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + ")";
    }
    return message;
  }
}
