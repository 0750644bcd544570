package io.bamel.inventory.store;

/**
 * {@link Codec#encode} with a memory of one: a value equal to the one encoded last gets the same
 * bytes without being encoded again (equal values encode to equal bytes: the codec is
 * deterministic). For a run that writes many equal values, such as the first event of every node a
 * sync creates. Not thread-safe: one per run. The bytes returned must not be modified.
 */
final class LastEncoded {

  private Object last;
  private byte[] bytes;
  private int encodings;

  /** The JSON of {@code value}. */
  byte[] encode(Object value) {
    if (bytes == null || !value.equals(last)) {
      bytes = Codec.encode(value);
      last = value;
      encodings++;
    }
    return bytes;
  }

  /** How many times a value was actually encoded. */
  int encodings() {
    return encodings;
  }
}
