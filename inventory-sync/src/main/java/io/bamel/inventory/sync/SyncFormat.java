package io.bamel.inventory.sync;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * A sync format: turns an uploaded document (the body of {@code POST /api/v1/sync?format=NAME})
 * into bamel records. bamel's own format ({@code bamel}) is one implementation; a DCIM module adds
 * its export format by implementing this interface and listing the class in {@code
 * META-INF/services/io.bamel.inventory.sync.SyncFormat} ({@link java.util.ServiceLoader}), so the
 * API finds it on the class path without depending on the module. Implementations are stateless and
 * thread-safe, and have a public no-argument constructor.
 */
public interface SyncFormat {

  /** The value of the {@code format} query parameter that selects this format; never changes. */
  String name();

  /**
   * The records of a document, in document order. A record that cannot be read becomes an
   * unreadable {@link SyncItem} (reported as rejected); only a document that is not this format's
   * envelope fails as a whole.
   *
   * @throws SyncInputException when the document is not this format's envelope (nothing is synced)
   */
  List<SyncItem> parse(JsonNode document);

  /**
   * Why the document holds only part of its source's records (one page of several), or empty when
   * it is complete. A prune needs the whole set, so a partial document is refused for a prune.
   */
  default Optional<String> partial(JsonNode document) {
    return Optional.empty();
  }
}
