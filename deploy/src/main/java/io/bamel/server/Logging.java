package io.bamel.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import org.slf4j.LoggerFactory;

/**
 * Sets up logging: one line per event on standard output, as text ({@code time level logger
 * message}, with key=value pairs in messages so lines can be grepped) or as JSON objects (one per
 * line, logback's {@code JsonEncoder}); the level applies to bamel's own loggers, libraries stay at
 * warnings.
 */
public final class Logging {

  private Logging() {}

  /** Configures the root logger; {@code format} is {@code text} or {@code json}. */
  public static void configure(String format, String level) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    Encoder<ILoggingEvent> encoder;
    if (format.equals("json")) {
      JsonEncoder json = new JsonEncoder();
      json.setContext(context);
      json.start();
      encoder = json;
    } else {
      PatternLayoutEncoder text = new PatternLayoutEncoder();
      text.setContext(context);
      text.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSX,UTC} %-5level %logger{0} %msg%n");
      text.start();
      encoder = text;
    }
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("console");
    console.setEncoder(encoder);
    console.start();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(console);
    context.getLogger("io.bamel").setLevel(Level.toLevel(level, Level.INFO));
  }
}
