package io.bamel.inventory.api.netbox;

import io.bamel.dcim.netbox.NetBoxEndpoints;
import io.bamel.dcim.netbox.WebhookRefusedException;
import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Bodies;
import io.bamel.inventory.api.http.Problems;
import io.javalin.http.Context;

/**
 * {@code POST /api/v1/webhooks/netbox} (public: NetBox signs its webhooks instead of sending a
 * token; the attached {@link NetBoxEndpoints} checks the signature) and {@code GET
 * /api/v1/sync/netbox/status}. Both answer 404 while no NetBox source is attached. A refused
 * webhook ({@link WebhookRefusedException}) is answered by its reason: webhooks off 404, a bad
 * signature 401, a body that is no webhook 400, a full queue 503.
 */
public final class NetBoxRoutes {

  private final ApiContext api;
  private volatile NetBoxEndpoints endpoints;

  public NetBoxRoutes(ApiContext api) {
    this.api = api;
  }

  public void attach(NetBoxEndpoints endpoints) {
    this.endpoints = endpoints;
  }

  public void webhook(Context ctx) {
    NetBoxEndpoints e = required();
    byte[] body = api.bodies.read(ctx, Bodies.JSON);
    Object queued;
    try {
      queued = e.webhook(body, ctx.header("X-Hook-Signature"));
    } catch (WebhookRefusedException x) {
      throw problem(x);
    }
    ApiContext.answer(ctx, 202, queued);
  }

  /** The problem answering a refused webhook. */
  static ApiException problem(WebhookRefusedException x) {
    return switch (x.reason()) {
      case OFF -> Problems.notFound(x.getMessage());
      case BAD_SIGNATURE -> Problems.unauthenticated(x.getMessage());
      case INVALID -> Problems.invalid("", x.getMessage());
      case QUEUE_FULL -> Problems.unavailable(x.getMessage());
    };
  }

  public void status(Context ctx) {
    ApiContext.answer(ctx, 200, required().status());
  }

  private NetBoxEndpoints required() {
    NetBoxEndpoints e = endpoints;
    if (e == null) {
      throw Problems.notFound(
          "this server has no NetBox source; set netbox.url (see docs/dcim.md)");
    }
    return e;
  }
}
