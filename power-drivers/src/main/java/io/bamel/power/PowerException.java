package io.bamel.power;

/**
 * A failed power call. It is either {@link TransientPowerException transient} (the same call may
 * succeed later: unreachable, busy, timed out) or {@link TerminalPowerException terminal} (it will
 * not succeed until something is changed: bad credentials, an unsupported operation, a missing
 * system). Messages never contain a secret.
 */
public abstract sealed class PowerException extends Exception
    permits TransientPowerException, TerminalPowerException {

  private static final long serialVersionUID = 1L;

  /** Why a call failed. */
  public enum Reason {
    /** The BMC could not be reached (connection refused, reset, no answer). Transient. */
    UNREACHABLE,
    /** The BMC said it is busy (HTTP 409/503, IPMI node busy). Transient. */
    BUSY,
    /** The call ran out of time. Transient. */
    TIMEOUT,
    /** The BMC answered with an error that may pass (HTTP 5xx, a failed task). Transient. */
    BMC_ERROR,
    /** The credentials were refused or are missing. Terminal. */
    BAD_CREDENTIALS,
    /** This interface or this BMC cannot do the operation. Terminal. */
    UNSUPPORTED,
    /** The system, VM or resource does not exist. Terminal. */
    NOT_FOUND,
    /** The endpoint's settings are wrong (a malformed address, a missing option). Terminal. */
    INVALID_CONFIG,
    /** The BMC's TLS certificate is not trusted. Terminal. */
    TLS,
    /** The BMC answered something this driver does not understand or rejects. Terminal. */
    PROTOCOL,
    /**
     * The credential may not be sent to this address, scheme or TLS setting (its directory's {@code
     * allowed-hosts} file does not allow it). Terminal.
     */
    NOT_ALLOWED
  }

  private final Reason reason;

  PowerException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** Why the call failed. */
  public Reason reason() {
    return reason;
  }

  /** Whether the same call may succeed later without any change. */
  public abstract boolean isTransient();
}
