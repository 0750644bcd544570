package io.bamel.inventory.sync;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.bamel.inventory.model.FieldError;
import java.util.List;

/**
 * The answer of {@code POST /api/v1/sync}: what was (or, in a dry run, would be) created, updated,
 * left unchanged, deleted, and what was rejected and why. {@code revision} is the etcd revision
 * after the sync (the cache's revision when nothing was written).
 */
public record SyncReport(
    boolean dryRun,
    long revision,
    List<Entry> created,
    List<Entry> updated,
    List<Entry> unchanged,
    List<Entry> deleted,
    List<Entry> rejected) {

  /**
   * One item of the report.
   *
   * @param item the request item's index ({@code -1} for a prune)
   * @param id the node id
   * @param reason why it was rejected
   * @param errors the invalid fields of a rejected item
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Entry(Integer item, String id, String reason, List<FieldError> errors) {

    /** Copies the errors. */
    public Entry {
      errors = errors == null ? List.of() : List.copyOf(errors);
    }
  }
}
