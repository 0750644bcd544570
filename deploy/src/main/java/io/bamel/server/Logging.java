package io.bamel.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import org.slf4j.LoggerFactory;

/**
 * Sets up logging. The long-running commands ({@code server}, {@code demo}) log one line per event
 * on standard output, as text ({@code time level logger message}, with key=value pairs in messages
 * so lines can be grepped) or as JSON (one object per line, {@link JsonLineEncoder}: ISO-8601
 * {@code timestamp}, {@code level}, {@code loggerName}, {@code threadName}, {@code
 * formattedMessage}, the fields {@code node}, {@code pool}, {@code action}, {@code reason} where an
 * event has them, {@code throwable} only with one, never a null field); the level applies to
 * bamel's own loggers, libraries stay at warnings. The other commands ({@code bmc}, {@code token})
 * keep standard output for their result: they log warnings and errors only, on standard error.
 *
 * <p>Both formats escape control characters (line breaks, other C0 and C1 controls, U+2028 and
 * U+2029) in every message, field and exception message ({@link
 * io.bamel.inventory.model.UntrustedText}): text from a BMC, NetBox, Kubernetes or a request is
 * data, and cannot forge a log line.
 */
public final class Logging {

  private Logging() {}

  /** Configures the root logger; {@code format} is {@code text} or {@code json}. */
  public static void configure(String format, String level) {
    LoggerContext context = reset();
    Encoder<ILoggingEvent> encoder = format.equals("json") ? json(context) : text(context);
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(console(context, encoder, "System.out"));
    context.getLogger("io.bamel").setLevel(Level.toLevel(level, Level.INFO));
  }

  /** Warnings and errors only, as text on standard error: for commands whose output is data. */
  public static void configureCommandLine() {
    LoggerContext context = reset();
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(console(context, text(context), "System.err"));
  }

  private static LoggerContext reset() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    return context;
  }

  /** One line per event ({@link TextLineEncoder}: control characters escaped). */
  private static Encoder<ILoggingEvent> text(LoggerContext context) {
    TextLineEncoder text = new TextLineEncoder();
    text.setContext(context);
    text.start();
    return text;
  }

  /** One JSON object per line ({@link JsonLineEncoder}). */
  private static Encoder<ILoggingEvent> json(LoggerContext context) {
    JsonLineEncoder json = new JsonLineEncoder();
    json.setContext(context);
    json.start();
    return json;
  }

  private static ConsoleAppender<ILoggingEvent> console(
      LoggerContext context, Encoder<ILoggingEvent> encoder, String target) {
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("console");
    console.setTarget(target);
    console.setEncoder(encoder);
    console.start();
    return console;
  }
}
