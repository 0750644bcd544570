package io.bamel.inventory.model;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * MAC addresses: six hex octets separated by {@code :} or {@code -}. The canonical form, which
 * bamel stores and compares, is lowercase with colons ({@code 0c:c4:7a:12:34:56}).
 */
public final class MacAddress {

  private static final Pattern VALID =
      Pattern.compile("[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\\1[0-9a-fA-F]{2}){4}");

  private MacAddress() {}

  /** Whether {@code text} is a MAC address in either accepted form. */
  public static boolean isValid(String text) {
    return text != null && VALID.matcher(text).matches();
  }

  /** The canonical form of a valid MAC address; {@code null} stays {@code null}. */
  public static String canonical(String text) {
    if (text == null) {
      return null;
    }
    if (!isValid(text)) {
      throw new InvalidInputException("macAddress", "not a MAC address: " + Texts.quote(text));
    }
    return text.replace('-', ':').toLowerCase(Locale.ROOT);
  }
}
