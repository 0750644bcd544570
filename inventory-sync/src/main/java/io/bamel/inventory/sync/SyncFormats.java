package io.bamel.inventory.sync;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The sync formats on the class path, found once with {@link ServiceLoader} and kept by name. Two
 * formats with one name are a packaging error and fail at once rather than letting the class path's
 * order pick one.
 */
public final class SyncFormats {

  private final Map<String, SyncFormat> byName;

  private SyncFormats(Map<String, SyncFormat> byName) {
    this.byName = Collections.unmodifiableMap(byName);
  }

  /** The formats the given class loader's class path registers. */
  public static SyncFormats load(ClassLoader loader) {
    Map<String, SyncFormat> byName = new TreeMap<>();
    for (SyncFormat format : ServiceLoader.load(SyncFormat.class, loader)) {
      SyncFormat earlier = byName.putIfAbsent(format.name(), format);
      if (earlier != null) {
        throw new IllegalStateException(
            "two sync formats are named "
                + format.name()
                + ": "
                + earlier.getClass().getName()
                + " and "
                + format.getClass().getName());
      }
    }
    return new SyncFormats(byName);
  }

  /** The format of that name, if one is registered. */
  public Optional<SyncFormat> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The registered names, in alphabetical order. */
  public Iterable<String> names() {
    return byName.keySet();
  }
}
