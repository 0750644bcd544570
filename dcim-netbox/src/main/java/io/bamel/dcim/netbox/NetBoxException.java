package io.bamel.dcim.netbox;

/**
 * A NetBox request failed: NetBox refused it ({@link #status()} is its HTTP status) or could not be
 * reached ({@code status} 0). The message names the request's path and what went wrong, never the
 * token.
 */
public final class NetBoxException extends RuntimeException {

  private final int status;

  /** A failure with NetBox's HTTP status (0: none). */
  public NetBoxException(String message, int status) {
    super(message);
    this.status = status;
  }

  /** A failure caused by {@code cause}, such as a connection error. */
  public NetBoxException(String message, Throwable cause) {
    super(message, cause);
    this.status = 0;
  }

  /** NetBox's HTTP status, 0 when there was none. */
  public int status() {
    return status;
  }

  /** Whether NetBox refused the token (401 or 403). */
  public boolean refusedToken() {
    return status == 401 || status == 403;
  }
}
