package io.bamel.inventory.api.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.bamel.inventory.model.JsonEnum;
import io.bamel.inventory.model.PersonText;
import io.bamel.inventory.model.Quantity;
import io.bamel.inventory.model.Texts;
import io.bamel.power.spi.SettingsJson;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns the JSON library's failures into texts written for a person, as pure functions: a body that
 * is not well-formed JSON is {@code invalid JSON at line L column C: <what>}, a value of the wrong
 * type is {@code must be a string} (or a whole number, an object, ...). The library's own messages
 * name Java types and its configuration, so they are matched on but never shown; the only input
 * quoted is a duplicated member's name, cut to 64 characters.
 */
final class JsonErrors {

  private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'");

  private JsonErrors() {}

  /** The detail of a 400 for a body that is not one well-formed JSON document. */
  static String syntax(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where =
        at != null && at.getLineNr() > 0
            ? "invalid JSON at line " + at.getLineNr() + " column " + at.getColumnNr()
            : "invalid JSON";
    return where + ": " + reason(e);
  }

  private static String reason(JsonProcessingException e) {
    String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (e instanceof StreamConstraintsException) {
      if (m.contains("nesting depth")) {
        return "nested more than 1000 levels deep";
      }
      if (m.contains("Number")) {
        return "a number is too long";
      }
      if (m.contains("String") || m.contains("Name")) {
        return "a string is too long";
      }
      return "the document is too large";
    }
    if (e instanceof JsonEOFException || m.startsWith("Unexpected end-of-input")) {
      return "the document ends before it is complete";
    }
    Matcher duplicate = DUPLICATE.matcher(m);
    if (duplicate.lookingAt()) {
      return "member " + Texts.quote(duplicate.group(1)) + " appears twice";
    }
    if (m.startsWith("Trailing token")) {
      return "there is more after the JSON value; send one document";
    }
    if (m.startsWith("Invalid UTF-8") || m.contains("Invalid UTF-8")) {
      return "the body is not valid UTF-8";
    }
    if (m.startsWith("Illegal unquoted character")) {
      return "a control character in a string must be escaped";
    }
    if (m.startsWith("Illegal character")) {
      return "a control character outside a string";
    }
    if (m.contains("hex-digit")) {
      return "a \\u escape needs four hex digits";
    }
    if (m.contains("escape")) {
      return "an invalid escape in a string";
    }
    if (m.startsWith("Unrecognized token")) {
      return "an unknown word; JSON values are strings, numbers, objects, arrays, true, false"
          + " and null";
    }
    if (m.contains("was expecting double-quote to start field name")) {
      return "a member name must be a string in double quotes";
    }
    if (m.contains("was expecting a colon")) {
      return "a ':' must follow a member name";
    }
    if (m.contains("expected a value")) {
      return "a value is missing";
    }
    if (m.contains("close marker")) {
      return "a bracket or brace does not match";
    }
    if (m.contains("numeric value") || m.contains("Leading zeroes") || m.contains("number")) {
      return "an invalid number";
    }
    return "not well-formed";
  }

  /**
   * The message of a field whose value cannot be read as the model's type. A message bamel's own
   * deserializers wrote ({@code expected a duration such as 90s or 10m}) is kept.
   */
  static String mapping(JsonProcessingException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InputCoercionException coercion) {
        return coercion(coercion);
      }
    }
    String own = e.getOriginalMessage();
    if (e instanceof MismatchedInputException
        && own != null
        && own.startsWith("expected ")
        && own.length() <= 200
        && PersonText.isPlain(own)) {
      return own;
    }
    if (e instanceof MismatchedInputException mismatch) {
      return "must be " + word(mismatch.getTargetType());
    }
    if (e instanceof ValueInstantiationException instantiation) {
      return "must be " + word(instantiation.getType().getRawClass());
    }
    if (e instanceof JsonMappingException) {
      return "cannot be read as the value this field takes";
    }
    return "is not well-formed: " + reason(e);
  }

  private static String coercion(InputCoercionException coercion) {
    Class<?> type = coercion.getTargetType();
    if (type == Integer.class || type == Integer.TYPE) {
      return "must be a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
    }
    return "is out of range for " + word(type);
  }

  /** What a value of {@code type} is, in words: a string, a whole number, an object, ... */
  static String word(Class<?> type) {
    if (type == Quantity.class) {
      return "a quantity as a string, such as \"16\", \"500m\" or \"64Gi\"";
    }
    if (type == Duration.class) {
      return "a duration as a string, such as \"90s\" or \"10m\"";
    }
    if (type != null && type.isEnum() && JsonEnum.class.isAssignableFrom(type)) {
      return "one of "
          + Arrays.stream(type.getEnumConstants())
              .map(c -> ((JsonEnum) c).json())
              .collect(Collectors.joining(", "));
    }
    return SettingsJson.typeWord(type);
  }
}
