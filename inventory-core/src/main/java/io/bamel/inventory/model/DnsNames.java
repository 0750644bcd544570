package io.bamel.inventory.model;

/**
 * Host names as RFC 1123 allows them: dot-separated labels of 1 to 63 letters, digits and {@code
 * -}, a label neither starting nor ending with {@code -}, at most 253 characters in all, no
 * trailing dot. Used for the host of a management address (any case) and for Kubernetes node names
 * (lower case only, as Kubernetes requires of node names).
 */
public final class DnsNames {

  /** The longest name accepted. */
  public static final int MAX_NAME = 253;

  /** The longest label accepted. */
  public static final int MAX_LABEL = 63;

  private DnsNames() {}

  /** Why {@code host} is not an RFC 1123 host name, or {@code null} if it is (any case). */
  public static String hostProblem(String host) {
    return problem(host, false);
  }

  /**
   * Why {@code name} is not a Kubernetes node name (an RFC 1123 name in lower case), or {@code
   * null} if it is.
   */
  public static String nodeNameProblem(String name) {
    return problem(name, true);
  }

  private static String problem(String name, boolean lowerOnly) {
    if (name == null || name.isEmpty()) {
      return "must not be empty";
    }
    if (name.length() > MAX_NAME) {
      return "must be at most " + MAX_NAME + " characters, is " + name.length();
    }
    int start = 0;
    while (true) {
      int dot = name.indexOf('.', start);
      int end = dot < 0 ? name.length() : dot;
      String labelProblem = labelProblem(name, start, end, lowerOnly);
      if (labelProblem != null) {
        return labelProblem;
      }
      if (dot < 0) {
        return null;
      }
      start = dot + 1;
    }
  }

  private static String labelProblem(String name, int start, int end, boolean lowerOnly) {
    int length = end - start;
    if (length == 0) {
      return "must be dot-separated labels, none of them empty (no leading, trailing or double dot)";
    }
    if (length > MAX_LABEL) {
      return "each dot-separated label must be at most " + MAX_LABEL + " characters";
    }
    for (int i = start; i < end; i++) {
      char c = name.charAt(i);
      boolean ok =
          c >= 'a' && c <= 'z'
              || c >= '0' && c <= '9'
              || !lowerOnly && c >= 'A' && c <= 'Z'
              || c == '-' && i > start && i < end - 1;
      if (!ok) {
        return lowerOnly
            ? "must be lowercase letters, digits, '-' and '.' (RFC 1123), each label starting"
                + " and ending with a letter or digit"
            : "must be letters, digits, '-' and '.' (RFC 1123), each label starting and ending"
                + " with a letter or digit";
      }
    }
    return null;
  }
}
