package io.bamel.inventory.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;

/**
 * Reads every {@link JsonEnum} by its JSON name, on every Jackson mapper: {@code JsonEnum} names
 * this class in its {@code @JsonDeserialize}, which the enums inherit. A scalar that names no
 * constant fails with {@link InvalidInputException} on the JSON field it came in, naming the
 * accepted values (the API's 400 shows both); an object or an array is a wrong type. It reads as
 * the enums' own {@code @JsonCreator} factories did, so the API's error texts did not change.
 */
public final class JsonEnumDeserializer extends StdDeserializer<Object>
    implements ContextualDeserializer {

  /** For Jackson, which makes one per enum type through {@link #createContextual}. */
  public JsonEnumDeserializer() {
    super(JsonEnum.class);
  }

  private JsonEnumDeserializer(Class<?> type) {
    super(type);
  }

  @Override
  public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
    JavaType type = ctxt.getContextualType();
    if (type == null && property != null) {
      type = property.getType();
    }
    return type == null || !type.isEnumType() ? this : new JsonEnumDeserializer(type.getRawClass());
  }

  @Override
  public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    Class<?> type = handledType();
    JsonToken token = p.currentToken();
    if (token == null || !token.isScalarValue() || !type.isEnum()) {
      return ctxt.handleUnexpectedToken(type, p);
    }
    String text = p.getValueAsString();
    try {
      return Enums.parse(constants(type), text, field(p, type));
    } catch (InvalidInputException e) {
      return ctxt.handleInstantiationProblem(type, text, e);
    }
  }

  private static JsonEnum[] constants(Class<?> type) {
    return (JsonEnum[]) type.getEnumConstants();
  }

  /** The JSON field the value came in, or the enum's name when it came alone. */
  private static String field(JsonParser p, Class<?> type) {
    for (JsonStreamContext c = p.getParsingContext(); c != null; c = c.getParent()) {
      if (c.getCurrentName() != null) {
        return c.getCurrentName();
      }
    }
    return Enums.field(type);
  }
}
