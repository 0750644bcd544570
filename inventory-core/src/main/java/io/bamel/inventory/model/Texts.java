package io.bamel.inventory.model;

/** Small helpers for putting user input into error messages safely. */
public final class Texts {

  private static final int MAX_QUOTED = 64;

  private Texts() {}

  /**
   * Quotes user input for an error message, cut to 64 characters so that a 1 MB string does not
   * come back in a 1 MB error.
   */
  public static String quote(String text) {
    if (text == null) {
      return "null";
    }
    String cut = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
    return "'" + cut + "'";
  }
}
