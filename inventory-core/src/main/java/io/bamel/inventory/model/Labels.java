package io.bamel.inventory.model;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Kubernetes-style labels: keys are an optional DNS prefix and a name of at most 63 characters;
 * values are at most 63 characters of letters, digits, {@code -_.}.
 */
public final class Labels {

  private static final Pattern NAME =
      Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?");
  private static final Pattern PREFIX =
      Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
  private static final Pattern VALUE =
      Pattern.compile("([A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?");

  private Labels() {}

  /** Whether {@code key} is a valid label key. */
  public static boolean isValidKey(String key) {
    if (key == null || key.isEmpty() || key.length() > 317) {
      return false;
    }
    int slash = key.indexOf('/');
    if (slash < 0) {
      return NAME.matcher(key).matches();
    }
    String prefix = key.substring(0, slash);
    return prefix.length() <= 253
        && PREFIX.matcher(prefix).matches()
        && NAME.matcher(key.substring(slash + 1)).matches();
  }

  /** Whether {@code value} is a valid label value (empty is valid). */
  public static boolean isValidValue(String value) {
    return value != null && VALUE.matcher(value).matches();
  }

  /** Records an error in {@code v} for every invalid key or value. */
  public static void validate(Validator v, Map<String, String> labels) {
    for (Map.Entry<String, String> e : labels.entrySet()) {
      v.check(isValidKey(e.getKey()), Texts.quote(e.getKey()), "not a valid label key");
      v.check(
          isValidValue(e.getValue()),
          Texts.quote(e.getKey()),
          "not a valid label value: " + Texts.quote(e.getValue()));
    }
  }
}
