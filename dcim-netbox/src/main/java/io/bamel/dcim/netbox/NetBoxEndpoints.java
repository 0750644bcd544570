package io.bamel.dcim.netbox;

/**
 * What a NetBox source offers the API's two NetBox routes, {@code POST /api/v1/webhooks/netbox} and
 * {@code GET /api/v1/sync/netbox/status} ({@link NetBoxSource} implements it; the server attaches
 * it to the API). Without one attached both routes answer 404. No HTTP type appears here: a refused
 * webhook is a {@link WebhookRefusedException} naming its reason, which the route turns into its
 * answer.
 */
public interface NetBoxEndpoints {

  /**
   * Receives one NetBox webhook: checks {@code signature} (the {@code X-Hook-Signature} header,
   * null when absent) against the raw {@code body}, queues the event and returns at once; the value
   * is the 202 answer's body.
   *
   * @throws WebhookRefusedException for webhooks that are off, a missing or wrong signature, a body
   *     that is no NetBox webhook, or a full queue; nothing is queued
   */
  Object webhook(byte[] body, String signature);

  /** The source's state: the last pull (time, counts, errors), webhooks and report-back. */
  Object status();
}
