package io.bamel.inventory.api.nodes;

import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.Attempts;
import io.bamel.inventory.api.http.Bodies;
import io.bamel.inventory.api.http.Preconditions;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.security.Caller;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.SpecEdit;
import io.javalin.http.Context;
import java.util.Set;

/**
 * {@code POST /api/v1/nodes/{id}/power}: an operator's power request ({@link PowerRequest}),
 * written with compare-and-swap (If-Match honoured) and recorded in the node's events.
 */
public final class PowerRoutes {

  private final ApiContext api;

  public PowerRoutes(ApiContext api) {
    this.api = api;
  }

  public void power(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String id = ApiContext.id(ctx, "id");
    PowerRequest request = PowerRequest.parse(api.json(ctx, Bodies.JSON));
    Preconditions.IfMatch ifMatch = Preconditions.parse(ctx.header("If-Match"));
    Caller caller = Caller.of(ctx);
    long revision =
        Attempts.run(
            !(ifMatch instanceof Preconditions.IfMatch.None),
            "node " + id,
            () ->
                NodeEditRoutes.editExisting(
                    api,
                    id,
                    current -> {
                      Preconditions.check(ifMatch, current.specRevision(), "node " + id);
                      return new SpecEdit.Result(
                          request.apply(id, current.spec()),
                          caller.event(api.clock(), "power-requested", request.describe()));
                    }));
    api.awaitCache(revision);
    Node node =
        api.cache
            .node(id)
            .filter(n -> n.specRevision() == revision)
            .or(() -> api.store.getNode(id))
            .orElseThrow(() -> Problems.notFound("no node " + id));
    ctx.header("ETag", Preconditions.etag(node.specRevision()));
    ApiContext.answer(ctx, 200, NodeView.of(node));
  }
}
