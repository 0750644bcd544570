package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.sync.SyncPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Confirms a pull's prunes with NetBox before anything is deleted: the devices of the nodes about
 * to be deleted are asked for by id ({@code GET /api/dcim/devices/?id=..&id=..&brief=1} with the
 * filters); a device NetBox lists after all (it moved between offset pages while the pull read
 * them, say) is not pruned. When NetBox cannot be asked, nothing is pruned. Also refuses to prune
 * every NetBox node because NetBox listed no device at all: a token that lost its view permission
 * sees an empty list, not an error.
 */
final class PruneCheck {

  private static final int CHUNK = 100;

  private PruneCheck() {}

  static SyncPlan confirm(
      SyncPlan plan, int devicesListed, NetBoxClient client, NetBoxFilters filters) {
    List<SyncPlan.Action> deletes = plan.of(SyncPlan.Kind.DELETE);
    if (deletes.isEmpty()) {
      return plan;
    }
    if (devicesListed == 0) {
      return refuse(
          plan,
          "not pruned: NetBox listed no device at all; check the token's permissions and"
              + " netbox.filters");
    }
    Map<Long, String> nodeOf = new HashMap<>();
    for (SyncPlan.Action a : deletes) {
      long id = NetBoxDevices.deviceId(a.before().inventoryId());
      if (id > 0) {
        nodeOf.put(id, a.id());
      }
    }
    Set<String> stillListed = new HashSet<>();
    List<Long> ids = new ArrayList<>(nodeOf.keySet());
    ids.sort(Long::compare);
    try {
      for (int from = 0; from < ids.size(); from += CHUNK) {
        List<Map.Entry<String, String>> q = new ArrayList<>();
        ids.subList(from, Math.min(ids.size(), from + CHUNK))
            .forEach(id -> q.add(Map.entry("id", Long.toString(id))));
        q.add(Map.entry("brief", "1"));
        q.add(Map.entry("limit", Integer.toString(CHUNK)));
        q.addAll(filters.query());
        JsonNode body = client.get(NetBoxClient.path("/api/dcim/devices/", q)).body();
        for (JsonNode d : body.path("results")) {
          String node = nodeOf.get(d.path("id").asLong(0));
          if (node != null) {
            stillListed.add(node);
          }
        }
      }
    } catch (NetBoxException e) {
      return refuse(
          plan, "not pruned: NetBox could not confirm the device is gone: " + e.getMessage());
    }
    List<SyncPlan.Action> out = new ArrayList<>();
    for (SyncPlan.Action a : plan.actions()) {
      if (a.kind() == SyncPlan.Kind.DELETE && stillListed.contains(a.id())) {
        out.add(
            new SyncPlan.Action(
                SyncPlan.Kind.REJECT,
                -1,
                a.id(),
                0,
                null,
                null,
                "not pruned: NetBox lists its device again (its list changed during the pull);"
                    + " the next pull decides",
                null));
      } else {
        out.add(a);
      }
    }
    return new SyncPlan(out);
  }

  private static SyncPlan refuse(SyncPlan plan, String reason) {
    List<SyncPlan.Action> out = new ArrayList<>();
    for (SyncPlan.Action a : plan.actions()) {
      out.add(
          a.kind() == SyncPlan.Kind.DELETE
              ? new SyncPlan.Action(SyncPlan.Kind.REJECT, -1, a.id(), 0, null, null, reason, null)
              : a);
    }
    return new SyncPlan(out);
  }
}
