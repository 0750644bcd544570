package io.bamel.inventory.sync;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** A second format named {@code empty}, registered only by {@link SyncFormatsTest}'s loader. */
public final class EmptyFormatTwin implements SyncFormat {

  @Override
  public String name() {
    return "empty";
  }

  @Override
  public List<SyncItem> parse(JsonNode document) {
    return List.of();
  }
}
