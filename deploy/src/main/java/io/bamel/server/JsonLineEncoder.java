package io.bamel.server;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.bamel.inventory.model.UntrustedText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * One JSON object per log event and line: {@code timestamp} (ISO-8601 in UTC, milliseconds, such as
 * {@code 2026-11-25T20:15:00.123Z}), {@code level}, {@code loggerName}, {@code threadName}, {@code
 * formattedMessage} (placeholders filled in), then the event's MDC entries and key-value pairs as
 * top-level fields ({@code node}, {@code pool}, {@code action}, {@code reason}, ...: a value is
 * written as a string, or as a number or boolean when it is one), and {@code throwable} (class,
 * message and stack trace as text) only when there is one. A field whose value is null is left out;
 * a key that repeats a field already written is left out too (the first one wins). Every string
 * value, the exception's messages included, has its control characters escaped ({@link
 * UntrustedText}) before JSON encoding, so the decoded value is one line as in the text format.
 *
 * <p>Why not logstash-logback-encoder: its fields are named otherwise ({@code @timestamp}, {@code
 * message}, {@code logger_name}, {@code stack_trace}); keeping these names, the nested {@code
 * throwable} object and the {@link UntrustedText} escaping of every value, key and exception
 * message would take a composite encoder with renamed providers, a provider of its own for {@code
 * throwable} and a character-escapes decorator: as much code as this class, plus a dependency and
 * its Jackson version to keep in step. docs/architecture.md, "Library choices".
 */
public final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {

  private static final byte[] NOTHING = new byte[0];
  private static final JsonFactory JSON = new JsonFactory();
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

  @Override
  public byte[] headerBytes() {
    return NOTHING;
  }

  @Override
  public byte[] footerBytes() {
    return NOTHING;
  }

  @Override
  public byte[] encode(ILoggingEvent event) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("timestamp", timestamp(event.getTimeStamp()));
    fields.put("level", event.getLevel().toString());
    fields.put("loggerName", event.getLoggerName());
    fields.put("threadName", event.getThreadName());
    fields.put("formattedMessage", UntrustedText.escape(event.getFormattedMessage()));
    Map<String, String> mdc = event.getMDCPropertyMap();
    if (mdc != null) {
      mdc.forEach((k, v) -> putIfUseful(fields, k, v));
    }
    if (event.getKeyValuePairs() != null) {
      for (KeyValuePair kv : event.getKeyValuePairs()) {
        putIfUseful(fields, kv.key, kv.value);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      for (Map.Entry<String, Object> f : fields.entrySet()) {
        Object v = f.getValue();
        if (v instanceof Boolean b) {
          g.writeBooleanField(f.getKey(), b);
        } else if (v instanceof Integer || v instanceof Long || v instanceof Short) {
          g.writeNumberField(f.getKey(), ((Number) v).longValue());
        } else if (v instanceof Double || v instanceof Float) {
          double d = ((Number) v).doubleValue();
          if (Double.isFinite(d)) {
            g.writeNumberField(f.getKey(), d);
          } else {
            g.writeStringField(f.getKey(), Double.toString(d));
          }
        } else {
          g.writeStringField(UntrustedText.escape(f.getKey()), UntrustedText.escape(v.toString()));
        }
      }
      IThrowableProxy t = EscapedThrowableProxy.of(event.getThrowableProxy());
      if (t != null) {
        g.writeObjectFieldStart("throwable");
        g.writeStringField("className", t.getClassName());
        if (t.getMessage() != null) {
          g.writeStringField("message", t.getMessage());
        }
        g.writeStringField("stackTrace", ThrowableProxyUtil.asString(t));
        g.writeEndObject();
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.write('\n');
    return out.toByteArray();
  }

  private static void putIfUseful(Map<String, Object> fields, String key, Object value) {
    if (key != null && value != null && !fields.containsKey(key) && !key.equals("throwable")) {
      fields.put(key, value);
    }
  }

  /** ISO-8601 in UTC with milliseconds. */
  static String timestamp(long epochMillis) {
    return TIME.format(Instant.ofEpochMilli(epochMillis));
  }
}
