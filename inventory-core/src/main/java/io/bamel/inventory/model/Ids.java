package io.bamel.inventory.model;

/**
 * The rule for node ids and pool names, which become one etcd key segment: lowercase letters,
 * digits, {@code -} and {@code .}; 1 to 63 characters; starting and ending with a letter or digit.
 * So a {@code /}, {@code ..}, upper case or any non-ASCII character never reaches etcd.
 */
public final class Ids {

  /** The longest id accepted. */
  public static final int MAX_LENGTH = 63;

  private Ids() {}

  /** Whether {@code id} is a valid id. */
  public static boolean isValid(String id) {
    return problem(id) == null;
  }

  /** Why {@code id} is not a valid id, or {@code null} if it is. */
  public static String problem(String id) {
    if (id == null || id.isEmpty()) {
      return "must not be empty";
    }
    if (id.length() > MAX_LENGTH) {
      return "must be at most " + MAX_LENGTH + " characters, is " + id.length();
    }
    if (id.contains("..")) {
      return "must not contain '..'";
    }
    if (!matchesCharset(id)) {
      return "must be lowercase letters, digits, '-' and '.', starting and ending with a letter"
          + " or digit";
    }
    return null;
  }

  /** Lowercase letters and digits, with inner {@code -} and {@code .}; no regex: hot path. */
  private static boolean matchesCharset(String id) {
    int last = id.length() - 1;
    for (int i = 0; i <= last; i++) {
      char c = id.charAt(i);
      boolean alnum = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
      boolean inner = (c == '-' || c == '.') && i > 0 && i < last;
      if (!alnum && !inner) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns {@code id} if valid.
   *
   * @throws InvalidInputException naming {@code field} when it is not
   */
  public static String require(String field, String id) {
    String problem = problem(id);
    if (problem != null) {
      throw new InvalidInputException(field, problem);
    }
    return id;
  }
}
