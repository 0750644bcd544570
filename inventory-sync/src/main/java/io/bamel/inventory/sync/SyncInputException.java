package io.bamel.inventory.sync;

/**
 * A sync document that cannot be read as a whole (not the format's envelope): names the field at
 * fault and says why, for the caller to report (the API answers 400 with it). Nothing is synced.
 */
public final class SyncInputException extends RuntimeException {

  private final String field;

  /**
   * @param field the document's field at fault ({@code ""} for the document itself)
   * @param detail why, written for a person
   */
  public SyncInputException(String field, String detail) {
    super(detail, null, false, false);
    this.field = field;
  }

  /** The field at fault, {@code ""} for the document itself. */
  public String field() {
    return field;
  }
}
