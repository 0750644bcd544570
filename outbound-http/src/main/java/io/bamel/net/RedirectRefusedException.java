package io.bamel.net;

import java.io.IOException;
import java.net.URI;

/**
 * A server answered with a redirect to another origin, which {@link OutboundPolicy} does not
 * follow. Its message, "refused redirect to another origin {@code <origin>}", names where the
 * server wanted the request to go; it carries no query string or secret of the request.
 */
public final class RedirectRefusedException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String origin;

  /**
   * @param origin the origin the answer redirected to
   * @param requested the request that was answered with it
   */
  public RedirectRefusedException(String origin, URI requested) {
    super(
        "refused redirect to another origin "
            + origin
            + " (answer to "
            + OutboundPolicy.origin(requested)
            + requested.getRawPath()
            + ")");
    this.origin = origin;
  }

  /** The origin the answer redirected to. */
  public String origin() {
    return origin;
  }
}
