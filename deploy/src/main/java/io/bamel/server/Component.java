package io.bamel.server;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The parts of {@code bamel server} that {@code --components} can select. */
public enum Component {
  /** The REST inventory API, health and metrics endpoints. */
  API("api"),
  /** The node controller (runs only while this process leads it). */
  NODE_CONTROLLER("node-controller"),
  /** The pool controller (runs only while this process leads it). */
  POOL_CONTROLLER("pool-controller");

  private final String label;

  Component(String label) {
    this.label = label;
  }

  /** The name used in configuration. */
  public String label() {
    return label;
  }

  /**
   * The component named {@code text}.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static Component parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    for (Component c : values()) {
      if (c.label.equals(t)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "unknown component '"
            + text
            + "'; expected "
            + Arrays.stream(values()).map(Component::label).collect(Collectors.joining(", ")));
  }

  @Override
  public String toString() {
    return label;
  }
}
