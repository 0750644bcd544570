package io.bamel.server;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import io.bamel.inventory.model.UntrustedText;
import java.nio.charset.StandardCharsets;

/**
 * The text log format, one event per line: {@code time level logger message} (ISO-8601 in UTC with
 * milliseconds, the level padded to five characters, the logger's simple name), as the pattern
 * {@code %d %-5level %logger{0} %msg%n} wrote it, with the message's control characters escaped
 * ({@link UntrustedText}): text quoted from a BMC, NetBox, Kubernetes or a request can never start
 * a line of its own. An exception follows on its own lines (its stack trace), its messages escaped
 * the same way ({@link EscapedThrowableProxy}).
 */
public final class TextLineEncoder extends EncoderBase<ILoggingEvent> {

  private static final byte[] NOTHING = new byte[0];

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
    StringBuilder line = new StringBuilder(160);
    line.append(JsonLineEncoder.timestamp(event.getTimeStamp())).append(' ');
    String level = event.getLevel().toString();
    line.append(level).append(" ".repeat(Math.max(0, 5 - level.length()))).append(' ');
    String logger = event.getLoggerName();
    line.append(logger.substring(logger.lastIndexOf('.') + 1)).append(' ');
    line.append(UntrustedText.escape(event.getFormattedMessage())).append('\n');
    IThrowableProxy t = event.getThrowableProxy();
    if (t != null) {
      line.append(ThrowableProxyUtil.asString(EscapedThrowableProxy.of(t))).append('\n');
    }
    return line.toString().getBytes(StandardCharsets.UTF_8);
  }
}
