package io.bamel.node;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * SMBIOS system UUIDs as BMCs and kubelets write them. Pure.
 *
 * <p>Two writers of one machine's UUID may disagree in case and, for the first three fields, in
 * byte order: SMBIOS 2.6 and later store {@code time_low}, {@code time_mid} and {@code
 * time_hi_and_version} little-endian, and some BMCs print the raw bytes while the kernel (whose
 * {@code /sys/class/dmi/id/product_uuid} the kubelet reports) swaps them, or the other way round.
 * {@link #same} accepts exactly that variant and nothing else.
 *
 * <p>Placeholders are no identity: the all-zero and all-{@code f} UUIDs (SMBIOS "not present" and
 * "not settable") and the {@code 03000200-0400-0500-0006-000700080009} that many boards ship unset
 * (in either byte order) are shared by many machines, so they never prove anything.
 */
final class SystemUuid {

  private static final Pattern FORM =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private static final Set<String> PLACEHOLDERS =
      Set.of(
          "00000000-0000-0000-0000-000000000000",
          "ffffffff-ffff-ffff-ffff-ffffffffffff",
          "03000200-0400-0500-0006-000700080009");

  private SystemUuid() {}

  /**
   * {@code text} as a lowercase {@code 8-4-4-4-12} UUID (surrounding blanks and braces dropped, an
   * unhyphenated 32-digit form hyphenated), or null when it is none or a placeholder.
   */
  static String canonical(String text) {
    if (text == null) {
      return null;
    }
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.startsWith("{") && t.endsWith("}")) {
      t = t.substring(1, t.length() - 1);
    }
    if (t.matches("[0-9a-f]{32}")) {
      t =
          t.substring(0, 8)
              + "-"
              + t.substring(8, 12)
              + "-"
              + t.substring(12, 16)
              + "-"
              + t.substring(16, 20)
              + "-"
              + t.substring(20);
    }
    if (!FORM.matcher(t).matches()
        || PLACEHOLDERS.contains(t)
        || PLACEHOLDERS.contains(byteSwapped(t))) {
      return null;
    }
    return t;
  }

  /**
   * {@code uuid} (canonical) with the byte order of its first three fields reversed: the SMBIOS
   * 2.6+ little-endian reading of the same 16 bytes.
   */
  static String byteSwapped(String uuid) {
    return reverse(uuid.substring(0, 8))
        + "-"
        + reverse(uuid.substring(9, 13))
        + "-"
        + reverse(uuid.substring(14, 18))
        + uuid.substring(18);
  }

  /**
   * Whether {@code a} and {@code b} name the same machine: equal ignoring case, or equal after
   * {@link #byteSwapped}. False when either is not a UUID or is a placeholder.
   */
  static boolean same(String a, String b) {
    String x = canonical(a);
    String y = canonical(b);
    if (x == null || y == null) {
      return false;
    }
    return x.equals(y) || byteSwapped(x).equals(y);
  }

  private static String reverse(String hex) {
    StringBuilder out = new StringBuilder(hex.length());
    for (int i = hex.length() - 2; i >= 0; i -= 2) {
      out.append(hex, i, i + 2);
    }
    return out.toString();
  }
}
