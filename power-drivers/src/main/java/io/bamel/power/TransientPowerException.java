package io.bamel.power;

/** A failure that may pass: retry later. */
public final class TransientPowerException extends PowerException {

  private static final long serialVersionUID = 1L;

  /** A transient failure; {@code message} must not contain a secret. */
  public TransientPowerException(Reason reason, String message) {
    this(reason, message, null);
  }

  /** A transient failure with its cause; neither may carry a secret. */
  public TransientPowerException(Reason reason, String message, Throwable cause) {
    super(reason, message, cause);
  }

  @Override
  public boolean isTransient() {
    return true;
  }
}
