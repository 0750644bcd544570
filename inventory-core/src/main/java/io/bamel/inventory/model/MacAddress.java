package io.bamel.inventory.model;

/**
 * MAC addresses: six hex octets separated by {@code :} or {@code -} (one separator throughout). The
 * canonical form, which bamel stores and compares, is lowercase with colons ({@code
 * 0c:c4:7a:12:34:56}). Checked character by character, without a regular expression: every spec
 * built, read from etcd or validated checks its MAC address.
 */
public final class MacAddress {

  /** {@code xx:xx:xx:xx:xx:xx}. */
  private static final int LENGTH = 17;

  private MacAddress() {}

  /** Whether {@code text} is a MAC address in either accepted form. */
  public static boolean isValid(String text) {
    if (text == null || text.length() != LENGTH) {
      return false;
    }
    char separator = text.charAt(2);
    if (separator != ':' && separator != '-') {
      return false;
    }
    for (int i = 0; i < LENGTH; i++) {
      char c = text.charAt(i);
      if (i % 3 == 2 ? c != separator : !hex(c)) {
        return false;
      }
    }
    return true;
  }

  /** The canonical form of a valid MAC address; {@code null} stays {@code null}. */
  public static String canonical(String text) {
    if (text == null) {
      return null;
    }
    if (!isValid(text)) {
      throw new InvalidInputException("macAddress", "not a MAC address: " + Texts.quote(text));
    }
    if (isCanonical(text)) {
      return text;
    }
    char[] chars = new char[LENGTH];
    for (int i = 0; i < LENGTH; i++) {
      char c = text.charAt(i);
      chars[i] = i % 3 == 2 ? ':' : c >= 'A' && c <= 'F' ? (char) (c + ('a' - 'A')) : c;
    }
    return new String(chars);
  }

  /** Whether a valid address is already lowercase with colons. */
  private static boolean isCanonical(String valid) {
    if (valid.charAt(2) != ':') {
      return false;
    }
    for (int i = 0; i < LENGTH; i++) {
      char c = valid.charAt(i);
      if (c >= 'A' && c <= 'F') {
        return false;
      }
    }
    return true;
  }

  private static boolean hex(char c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }
}
