package io.bamel.inventory.model;

/**
 * Text bamel did not write (a BMC's error message, a NetBox or Kubernetes answer, a request) made
 * safe to put on one log line or into a stored message: every control character is escaped, so the
 * text can neither start a line of its own (a forged log line) nor move a terminal's cursor. Pure.
 *
 * <p>Escaped: {@code \n}, {@code \r} and {@code \t} as those two-character sequences; every other
 * C0 control (U+0000 to U+001F), DEL (U+007F), the C1 controls (U+0080 to U+009F) and the Unicode
 * line and paragraph separators (U+2028, U+2029) as {@code \}{@code uXXXX}. Everything else, the
 * backslash included, is kept: the result is for reading, not to be unescaped. Escaping escaped
 * text changes nothing, so a stored message compared with a freshly built one stays equal.
 */
public final class UntrustedText {

  private UntrustedText() {}

  /** {@code text} with its control characters escaped; null stays null. */
  public static String escape(String text) {
    if (text == null) {
      return null;
    }
    int first = firstControl(text);
    if (first < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    out.append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!isControl(c)) {
        out.append(c);
        continue;
      }
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out.toString();
  }

  /** Whether {@code c} is escaped. */
  public static boolean isControl(char c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
  }

  private static int firstControl(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (isControl(text.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
