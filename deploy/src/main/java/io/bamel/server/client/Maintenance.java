package io.bamel.server.client;

import java.util.List;

/**
 * Puts nodes in or out of maintenance: a JSON Merge Patch of {@code spec.maintenance} ({@code
 * true}, or {@code null} to remove it), {@code PATCH /api/v1/nodes/{id}}. A node in maintenance is
 * left alone by bamel: no power action, cordon, eviction or label change (the BMC is still read).
 */
final class Maintenance {

  private Maintenance() {}

  /** The merge patch for {@code on}. Pure. */
  static String patch(boolean on) {
    return on ? "{\"maintenance\":true}" : "{\"maintenance\":null}";
  }

  /** Patches each node and prints {@code node/<id> <verb>}. */
  static int apply(ClientCommand command, ApiClient api, List<String> nodes, boolean on) {
    for (String node : nodes) {
      api.send(
          "PATCH",
          ApiClient.API + "/nodes/" + ClientCommand.segment(node),
          "application/merge-patch+json",
          patch(on));
      command.out().println("node/" + node + (on ? " in maintenance" : " out of maintenance"));
    }
    command.out().flush();
    return 0;
  }
}
