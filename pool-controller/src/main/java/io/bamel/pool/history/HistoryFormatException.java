package io.bamel.pool.history;

/**
 * A stored demand history that cannot be read: not JSON, a version this bamel does not read, or a
 * field out of its bounds ({@link HistoryJson#read}). The message names the field, never the value.
 */
public final class HistoryFormatException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  HistoryFormatException(String message) {
    super("demand history: " + message);
  }
}
