package io.bamel.inventory.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.bamel.inventory.model.Durations;
import io.bamel.inventory.model.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * The JSON codec for everything bamel stores in etcd and serves in its API: the same mapper
 * everywhere, so what {@code etcdctl get} shows is what the API returns.
 *
 * <p>Writing is deterministic (absent fields omitted, map keys sorted, times in ISO-8601 UTC,
 * durations as {@code 10m}), so equal values encode to equal bytes: the store skips writes that
 * would not change a value. Reading is strict about syntax (duplicate keys are an error) and
 * tolerant of fields it does not know (they are kept by the records' extensions).
 */
public final class Codec {

  private static final ObjectMapper MAPPER = create();

  private Codec() {}

  /** The shared mapper (thread-safe; do not reconfigure). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** Encodes {@code value} as UTF-8 JSON. */
  public static byte[] encode(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName(), e);
    }
  }

  /**
   * Decodes UTF-8 JSON stored by bamel.
   *
   * @throws UncheckedIOException when the bytes are not a valid {@code type}
   */
  public static <T> T decode(byte[] json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot decode " + type.getSimpleName(), e);
    }
  }

  private static ObjectMapper create() {
    SimpleModule durations = new SimpleModule("bamel-durations");
    durations.addSerializer(
        Duration.class,
        new JsonSerializer<>() {
          @Override
          public void serialize(Duration value, JsonGenerator gen, SerializerProvider provider)
              throws IOException {
            gen.writeString(Durations.format(value));
          }
        });
    durations.addDeserializer(
        Duration.class,
        new JsonDeserializer<>() {
          @Override
          public Duration deserialize(JsonParser p, DeserializationContext ctxt)
              throws IOException {
            if (!p.currentToken().isScalarValue() || p.currentToken().isNumeric()) {
              throw InvalidFormat.of(p, "a duration such as 90s or 10m");
            }
            try {
              return Durations.parse(p.getText());
            } catch (InvalidInputException e) {
              throw InvalidFormat.of(p, "a duration such as 90s or 10m");
            }
          }
        });
    return JsonMapper.builder()
        .addModule(new JavaTimeModule())
        .addModule(durations)
        .defaultPropertyInclusion(
            JsonInclude.Value.construct(
                JsonInclude.Include.NON_NULL, JsonInclude.Include.USE_DEFAULTS))
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();
  }
}
