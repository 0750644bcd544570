package io.bamel.inventory.sync;

import io.bamel.inventory.model.Ids;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The node id a DCIM name implies, as a pure function: ASCII-fold what folds, else nothing.
 *
 * <ol>
 *   <li>Unicode NFKD (compatibility decomposition), combining marks removed, and the Latin letters
 *       that do not decompose written out ({@code ß} ss, {@code æ} ae, {@code œ} oe, {@code ø} o,
 *       {@code đ} d, {@code ł} l, {@code þ} th, {@code ı} i): {@code Müller} is {@code muller},
 *       {@code ｓｒｖ１} is {@code srv1};
 *   <li>a name that still holds a letter or digit outside ASCII (Cyrillic, Greek, CJK, kana...) has
 *       no derived id: no transliteration of those scripts is attempted (it would be one guess
 *       among several), so {@code сервер-1} and {@code 节点} get none;
 *   <li>lower case; every character but {@code a-z}, {@code 0-9}, {@code .} and {@code -} becomes
 *       {@code -}; runs of dots become one; dots and dashes are trimmed from both ends; at most 63
 *       characters (RFC 1123 host name label rules, as {@link Ids} checks them);
 *   <li>nothing left: none.
 * </ol>
 *
 * A caller with a record number uses its fallback ({@code netbox-<id>}) when this gives none. Two
 * names may give one id: the identity rule decides ({@link IdentityRule}), never their order.
 */
public final class DerivedNodeId {

  private static final Map<Character, String> UNDECOMPOSED =
      Map.of(
          'ß', "ss", 'æ', "ae", 'œ', "oe", 'ø', "o", 'đ', "d", 'ł', "l", 'þ', "th", 'ı', "i", 'ð',
          "d", 'ħ', "h");
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");

  private DerivedNodeId() {}

  /** The id {@code name} implies, or null when it implies none. */
  public static String of(String name) {
    if (name == null) {
      return null;
    }
    String folded =
        MARKS
            .matcher(Normalizer.normalize(name, Normalizer.Form.NFKD))
            .replaceAll("")
            .toLowerCase(Locale.ROOT);
    StringBuilder ascii = new StringBuilder(folded.length());
    for (int i = 0; i < folded.length(); i++) {
      char c = folded.charAt(i);
      String spelled = UNDECOMPOSED.get(c);
      if (spelled != null) {
        ascii.append(spelled);
      } else if (c < 128) {
        ascii.append(c);
      } else if (Character.isLetterOrDigit(c) || Character.isSurrogate(c)) {
        return null;
      } else {
        ascii.append('-');
      }
    }
    String id = ascii.toString().replaceAll("[^a-z0-9.-]", "-");
    id = id.replaceAll("\\.{2,}", ".").replaceAll("^[.-]+", "").replaceAll("[.-]+$", "");
    if (id.length() > Ids.MAX_LENGTH) {
      id = id.substring(0, Ids.MAX_LENGTH).replaceAll("[.-]+$", "");
    }
    return id.isEmpty() ? null : id;
  }
}
