package io.bamel.dcim.netbox;

/**
 * A NetBox webhook the source did not take ({@link NetBoxEndpoints#webhook}): why, as a {@link
 * Reason}, and a message written for the sender. Nothing is queued. The API's NetBox route turns
 * each reason into its HTTP answer; this module knows no HTTP server.
 */
public final class WebhookRefusedException extends RuntimeException {

  /** Why a webhook was refused. */
  public enum Reason {
    /** This server takes no webhooks (no webhook secret configured). */
    OFF,
    /** The signature is missing or does not match the body. */
    BAD_SIGNATURE,
    /** The body is no NetBox webhook. */
    INVALID,
    /** The queue is full; NetBox sends it again. */
    QUEUE_FULL
  }

  private final Reason reason;

  /**
   * @param reason why
   * @param message what the sender is told
   */
  public WebhookRefusedException(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  /** Why the webhook was refused. */
  public Reason reason() {
    return reason;
  }
}
