package io.bamel.inventory.api.netbox;

import io.bamel.inventory.api.InventoryApi;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Problems;

/**
 * What the API asks of a NetBox source (the server's {@code netbox} settings; module {@code
 * dcim-netbox}) for its two routes, attached with {@link InventoryApi#netbox}: {@code POST
 * /api/v1/webhooks/netbox} and {@code GET /api/v1/sync/netbox/status}. Without one attached both
 * answer 404. Implementations throw {@link ApiException} (from {@link Problems}) for an error
 * answer.
 */
public interface NetBoxEndpoints {

  /**
   * Receives one NetBox webhook: checks {@code signature} (the {@code X-Hook-Signature} header,
   * null when absent) against the raw {@code body}, queues the event and returns at once; the value
   * is the 202 answer's body.
   *
   * @throws ApiException 401 for a missing or wrong signature (nothing is queued), 400 for a body
   *     that is no NetBox webhook, 503 when the queue is full
   */
  Object webhook(byte[] body, String signature);

  /** The source's state: the last pull (time, counts, errors), webhooks and report-back. */
  Object status();
}
