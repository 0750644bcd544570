package io.bamel.server;

import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import io.bamel.inventory.model.UntrustedText;

/**
 * A logged exception whose messages (its own, its causes' and suppressed ones') have their control
 * characters escaped ({@link UntrustedText}): an exception's message may quote a BMC, NetBox or a
 * request, and must not start a log line of its own. The stack frames are bamel's and stay as they
 * are, one per line.
 */
final class EscapedThrowableProxy implements IThrowableProxy {

  private final IThrowableProxy real;

  private EscapedThrowableProxy(IThrowableProxy real) {
    this.real = real;
  }

  /** {@code real} with its messages escaped; null stays null. */
  static IThrowableProxy of(IThrowableProxy real) {
    return real == null || real instanceof EscapedThrowableProxy
        ? real
        : new EscapedThrowableProxy(real);
  }

  @Override
  public String getMessage() {
    return UntrustedText.escape(real.getMessage());
  }

  @Override
  public String getClassName() {
    return real.getClassName();
  }

  @Override
  public StackTraceElementProxy[] getStackTraceElementProxyArray() {
    return real.getStackTraceElementProxyArray();
  }

  @Override
  public int getCommonFrames() {
    return real.getCommonFrames();
  }

  @Override
  public IThrowableProxy getCause() {
    return of(real.getCause());
  }

  @Override
  public IThrowableProxy[] getSuppressed() {
    IThrowableProxy[] suppressed = real.getSuppressed();
    if (suppressed == null) {
      return null;
    }
    IThrowableProxy[] out = new IThrowableProxy[suppressed.length];
    for (int i = 0; i < suppressed.length; i++) {
      out[i] = of(suppressed[i]);
    }
    return out;
  }

  @Override
  public boolean isCyclic() {
    return real.isCyclic();
  }
}
