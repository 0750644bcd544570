package io.bamel.inventory.model;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The serial numbers that identify nothing: what BIOSes and BMCs ship when the vendor filled no
 * serial in (SMBIOS type 1 and 3 strings such as AMI's {@code To be filled by O.E.M.}, {@code
 * Default string}, {@code System Serial Number}, dmidecode's {@code Not Specified}; systemd's hwdb
 * also lists {@code OEM} and {@code O.E.M.} as meaningless DMI strings), and empty or white space.
 * Compared trimmed and case-insensitively. A placeholder is stored as given, but it is never used
 * to match a record to a node and never counts as a value two nodes may not share.
 *
 * <p>The list is {@link #DEFAULTS} plus what the server's configuration adds ({@code
 * sync.placeholderSerials}), set once at start with {@link #configure} before any write.
 */
public final class PlaceholderSerials {

  /** The values treated as no serial by default (compared trimmed and case-insensitively). */
  public static final List<String> DEFAULTS =
      List.of(
          "To be filled by O.E.M.",
          "Default string",
          "System Serial Number",
          "Chassis Serial Number",
          "Base Board Serial Number",
          "Not Specified",
          "Not Applicable",
          "Not Available",
          "N/A",
          "None",
          "OEM",
          "O.E.M.",
          "0",
          "0123456789",
          "123456789",
          "XXXXXXXXXX");

  private static final Set<String> DEFAULT_KEYS =
      DEFAULTS.stream().map(PlaceholderSerials::key).collect(Collectors.toUnmodifiableSet());

  private static volatile Set<String> extra = Set.of();

  private PlaceholderSerials() {}

  /**
   * Adds {@code values} to the defaults (replacing what an earlier call added); blank values are
   * ignored. Called once at start, before the store writes.
   */
  public static void configure(Collection<String> values) {
    extra =
        values == null
            ? Set.of()
            : values.stream()
                .filter(v -> v != null && !v.isBlank())
                .map(PlaceholderSerials::key)
                .collect(Collectors.toUnmodifiableSet());
  }

  /** Whether {@code serial} identifies nothing: null, blank, or a listed placeholder. */
  public static boolean isPlaceholder(String serial) {
    if (serial == null || serial.isBlank()) {
      return true;
    }
    String k = key(serial);
    return DEFAULT_KEYS.contains(k) || extra.contains(k);
  }

  /** {@code serial} when it identifies a machine, else null (for matching and uniqueness). */
  public static String identifying(String serial) {
    return isPlaceholder(serial) ? null : serial;
  }

  private static String key(String value) {
    return value.strip().toLowerCase(Locale.ROOT);
  }
}
