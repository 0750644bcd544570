package io.bamel.inventory.api.sync;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.sync.SyncFormat;
import io.bamel.inventory.sync.SyncItem;
import java.util.List;

/** The sync format {@code bamel}: bamel's own records ({@link BamelRecords}), the default. */
public final class BamelFormat implements SyncFormat {

  /** The format's name, the default of {@code POST /api/v1/sync}'s {@code format}. */
  public static final String NAME = "bamel";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<SyncItem> parse(JsonNode document) {
    return BamelRecords.read(document);
  }
}
