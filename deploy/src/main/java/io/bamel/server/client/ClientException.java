package io.bamel.server.client;

/**
 * A client command failed for a reason a person can act on (the server refused, could not be
 * reached, the configuration is wrong). The message is printed as it is after {@code error: } and
 * never holds a token. {@link #status()} is the HTTP status of a refusal, 0 otherwise.
 */
public final class ClientException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;

  /** A failure with its one-line explanation. */
  public ClientException(String message) {
    this(message, 0);
  }

  /** A refusal by the server with its HTTP status. */
  public ClientException(String message, int status) {
    super(message, null, false, false);
    this.status = status;
  }

  /** The HTTP status of the server's refusal; 0 when the server did not answer one. */
  public int status() {
    return status;
  }
}
