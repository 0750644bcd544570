package io.bamel.inventory.sync;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/** A sync format for the tests, registered in the test class path: no records, always partial. */
public final class EmptyFormat implements SyncFormat {

  @Override
  public String name() {
    return "empty";
  }

  @Override
  public List<SyncItem> parse(JsonNode document) {
    if (!document.isObject()) {
      throw new SyncInputException("", "must be a JSON object");
    }
    return List.of();
  }

  @Override
  public Optional<String> partial(JsonNode document) {
    return Optional.of("the empty format never has every record");
  }
}
