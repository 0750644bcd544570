package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.sync.SyncFormat;
import io.bamel.inventory.sync.SyncItem;
import java.util.List;
import java.util.Optional;

/**
 * The sync format {@code netbox}: the body of NetBox's {@code GET /api/dcim/devices/} ({@link
 * NetBoxDevices}); a list that is one page of several is partial.
 */
public final class NetBoxFormat implements SyncFormat {

  @Override
  public String name() {
    return "netbox";
  }

  @Override
  public List<SyncItem> parse(JsonNode document) {
    return NetBoxDevices.read(document);
  }

  @Override
  public Optional<String> partial(JsonNode document) {
    return NetBoxDevices.partial(document);
  }
}
