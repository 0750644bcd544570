package io.bamel.inventory.api.netbox;

import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.Bodies;
import io.bamel.inventory.api.http.Problems;
import io.javalin.http.Context;

/**
 * {@code POST /api/v1/webhooks/netbox} (public: NetBox signs its webhooks instead of sending a
 * token; the attached {@link NetBoxEndpoints} checks the signature) and {@code GET
 * /api/v1/sync/netbox/status}. Both answer 404 while no NetBox source is attached.
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
    ApiContext.answer(ctx, 202, e.webhook(body, ctx.header("X-Hook-Signature")));
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
