package io.bamel.inventory.api.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.store.Codec;
import io.bamel.power.spi.SettingsJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON for API input and output. Output uses the store's {@link Codec} mapper, so the API shows
 * what {@code etcdctl} shows. Input is stricter than what the store reads back: it must be strict
 * UTF-8 without a byte order mark and without unpaired surrogate escapes ({@link JsonText});
 * duplicate keys, trailing tokens and type coercions ({@code "7"} for a number, {@code 7} for a
 * text) are errors, and fields the model does not know are rejected rather than kept ({@link
 * UnknownFields}). Every error is worded for a person ({@link JsonErrors}): no Java type or library
 * message reaches the client.
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
    return SettingsJson.refuseScalarCoercions(mapper);
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
    String encoding = JsonText.encodingProblem(body);
    if (encoding != null) {
      throw Problems.malformed(encoding);
    }
    JsonNode node;
    try {
      node = INPUT.readTree(body);
    } catch (JsonProcessingException e) {
      throw Problems.malformed(JsonErrors.syntax(e));
    } catch (IOException e) {
      throw Problems.malformed("the body cannot be read");
    }
    if (node == null || node.isMissingNode()) {
      throw Problems.malformed("the request body is empty");
    }
    String text = JsonText.maySpellSurrogate(body) ? JsonText.surrogateProblem(node) : null;
    if (text != null) {
      throw Problems.malformed("invalid JSON: " + text);
    }
    return node;
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
      throw Problems.invalid("", "cannot be read as " + JsonErrors.word(type));
    }
    List<FieldError> unknown = new ArrayList<>(UnknownFields.extensionsMembers(tree, type));
    unknown.addAll(UnknownFields.find(value));
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
        // A record's constructor names its own fields; a value's creator names a placeholder.
        boolean record =
            e instanceof ValueInstantiationException v && v.getType().getRawClass().isRecord();
        List<FieldError> errors = new ArrayList<>();
        for (FieldError error : invalid.errors()) {
          String field =
              prefix.isEmpty() ? error.field() : record ? prefix + "." + error.field() : prefix;
          errors.add(new FieldError(field, error.message()));
        }
        return Problems.invalid("the request has an invalid field", errors);
      }
      cause = cause.getCause();
    }
    return Problems.invalid(path(e), JsonErrors.mapping(e));
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
}
