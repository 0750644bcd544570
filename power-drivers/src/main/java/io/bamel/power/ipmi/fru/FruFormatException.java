package io.bamel.power.ipmi.fru;

/**
 * FRU inventory data that does not follow the Platform Management FRU Information Storage
 * Definition: a bad checksum, an area or field running past the end, an unknown format version. Its
 * message says where.
 */
public final class FruFormatException extends Exception {

  private static final long serialVersionUID = 1L;

  /** An error about the FRU data, {@code message} saying where and what. */
  public FruFormatException(String message) {
    super(message);
  }
}
