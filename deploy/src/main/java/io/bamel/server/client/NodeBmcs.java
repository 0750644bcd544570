package io.bamel.server.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import io.bamel.node.BmcEndpoints;
import io.bamel.server.client.bmc.BmcCommand;
import java.nio.file.Path;

/**
 * A node's BMC from its API JSON ({@code NodeView}): its spec, read as the inventory's {@link
 * NodeSpec}, goes through the node controller's own mapping ({@link BmcEndpoints}), so {@code bamel
 * bmc --node} reaches the BMC exactly as the controller does. Pure; no secret is involved.
 */
public final class NodeBmcs {

  private NodeBmcs() {}

  /**
   * The node's BMC, with {@code credentialsRoot} as the local directory of credentials.
   *
   * @throws BmcCommand.NodeLookupException when the node has no power interface or address, or its
   *     spec cannot be read
   */
  public static BmcCommand.NodeBmc of(JsonNode view, Path credentialsRoot) {
    String id = view.path("id").asText();
    NodeSpec spec;
    try {
      spec = Codec.mapper().treeToValue(view.path("spec"), NodeSpec.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new BmcCommand.NodeLookupException(
          "node " + id + ": cannot read its spec: " + e.getMessage());
    }
    PowerInterface iface = spec.powerInterface();
    if (iface == null) {
      throw new BmcCommand.NodeLookupException("node " + id + " has no powerInterface");
    }
    if (iface.type().address(spec.facts(id)) == null) {
      throw new BmcCommand.NodeLookupException(
          "node " + id + " has no " + iface.type().addressField());
    }
    return new BmcCommand.NodeBmc(iface.json(), BmcEndpoints.of(id, spec), credentialsRoot);
  }
}
