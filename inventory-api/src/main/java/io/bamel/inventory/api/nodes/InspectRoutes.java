package io.bamel.inventory.api.nodes;

import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.Attempts;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.security.Caller;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.PowerInterfaceTypes;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v1/nodes/{id}/inspect}: asks the node controller to inspect the node's hardware
 * through its BMC. The request is the field {@code status.inspectRequestedAt}, written with
 * compare-and-swap on the status revision (a lost race with the controller is retried from a fresh
 * read, so neither write is lost) together with an {@code inspect-requested} event; the controller
 * clears it in the write that stores {@code status.hardware} with a new {@code inspectedAt}. A
 * request already pending is answered again without a write, so repeated calls cost etcd nothing.
 *
 * <p>Answers 202 Accepted with {@code {"id", "inspectRequestedAt", "inspectedAt"}} (the time of the
 * previous inspection, null if none: the client waits for {@code status.hardware.inspectedAt} to
 * differ from it) and {@code Location} the node; 404 for an unknown node; 409 when the node's power
 * interface cannot inspect ({@code wol}) or it has none. The body is not read.
 */
public final class InspectRoutes {

  private final ApiContext api;

  public InspectRoutes(ApiContext api) {
    this.api = api;
  }

  public void inspect(Context ctx) {
    ApiContext.query(ctx, Set.of());
    String id = ApiContext.id(ctx, "id");
    Caller caller = Caller.of(ctx);
    Node node =
        Attempts.run(
            false,
            "status of node " + id,
            () -> {
              Node current =
                  api.store.getNode(id).orElseThrow(() -> Problems.notFound("no node " + id));
              requireInspectable(id, current.spec());
              NodeStatus status = current.status();
              if (status != null && status.inspectRequestedAt() != null) {
                return current;
              }
              NodeStatus next =
                  (status == null ? NodeStatus.builder() : status.toBuilder())
                      .inspectRequestedAt(api.clock().instant())
                      .build();
              long revision =
                  api.store.putStatus(
                      id,
                      current.statusRevision(),
                      next,
                      caller.event(api.clock(), "inspect-requested", "hardware inspection"),
                      null);
              return new Node(
                  id, current.spec(), current.specRevision(), next, revision, current.readings());
            });
    NodeHardware hardware = node.status().hardware();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", id);
    body.put("inspectRequestedAt", node.status().inspectRequestedAt());
    body.put("inspectedAt", hardware == null ? null : hardware.inspectedAt());
    ctx.header("Location", "/api/v1/nodes/" + id);
    ApiContext.answer(ctx, 202, body);
  }

  private static void requireInspectable(String id, NodeSpec spec) {
    if (spec.powerInterface() == null) {
      throw Problems.conflict("node " + id + " has no powerInterface: nothing can inspect it");
    }
    if (!spec.powerInterface().capabilities().inspection()) {
      throw Problems.conflict(
          "node "
              + id
              + " is driven by "
              + spec.powerInterface().json()
              + ", which cannot inspect hardware ("
              + PowerInterfaceTypes.namesWhere(PowerCapabilities::inspection, " and ")
              + " can)");
    }
  }
}
