package io.bamel.power;

/** A failure that will not pass by retrying: something must be changed first. */
public final class TerminalPowerException extends PowerException {

  private static final long serialVersionUID = 1L;

  /** A terminal failure; {@code message} must not contain a secret. */
  public TerminalPowerException(Reason reason, String message) {
    this(reason, message, null);
  }

  /** A terminal failure with its cause; neither may carry a secret. */
  public TerminalPowerException(Reason reason, String message, Throwable cause) {
    super(reason, message, cause);
  }

  /** The operation is not supported by this interface or BMC. */
  public static TerminalPowerException unsupported(String powerInterface, String operation) {
    return new TerminalPowerException(
        Reason.UNSUPPORTED, powerInterface + " does not support " + operation);
  }

  @Override
  public boolean isTransient() {
    return false;
  }
}
