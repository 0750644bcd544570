package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource quantity written as Kubernetes writes them: a non-negative decimal number with an
 * optional suffix, binary ({@code Ki Mi Gi Ti Pi Ei}), decimal ({@code m k M G T P E}) or an
 * exponent ({@code e3}). Examples: {@code 16}, {@code 500m} (0.5), {@code 64Gi}. The text is kept
 * as written (it is what JSON shows); {@link #value()} is the exact number it denotes.
 */
public final class Quantity implements Comparable<Quantity> {

  /** Zero. */
  public static final Quantity ZERO = new Quantity("0", BigDecimal.ZERO);

  private static final int MAX_TEXT = 64;
  // A fleet has a few hardware sizes: one Quantity (and BigDecimal) per text, not one per node.
  private static final Canonical<String, Quantity> PARSED = new Canonical<>(1024);
  private static final Pattern FORMAT =
      Pattern.compile(
          "([0-9]+(?:\\.[0-9]+)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]{1,3})?");
  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
          Map.entry("", BigDecimal.ONE),
          Map.entry("m", new BigDecimal("0.001")),
          Map.entry("k", BigDecimal.TEN.pow(3)),
          Map.entry("M", BigDecimal.TEN.pow(6)),
          Map.entry("G", BigDecimal.TEN.pow(9)),
          Map.entry("T", BigDecimal.TEN.pow(12)),
          Map.entry("P", BigDecimal.TEN.pow(15)),
          Map.entry("E", BigDecimal.TEN.pow(18)),
          Map.entry("Ki", BigDecimal.valueOf(2).pow(10)),
          Map.entry("Mi", BigDecimal.valueOf(2).pow(20)),
          Map.entry("Gi", BigDecimal.valueOf(2).pow(30)),
          Map.entry("Ti", BigDecimal.valueOf(2).pow(40)),
          Map.entry("Pi", BigDecimal.valueOf(2).pow(50)),
          Map.entry("Ei", BigDecimal.valueOf(2).pow(60)));

  private final String text;
  private final BigDecimal value;

  private Quantity(String text, BigDecimal value) {
    this.text = text;
    this.value = value;
  }

  /**
   * Parses a quantity.
   *
   * @throws InvalidInputException when {@code text} is not a non-negative quantity
   */
  @JsonCreator
  public static Quantity parse(String text) {
    if (text == null || text.isEmpty()) {
      throw new InvalidInputException("quantity", "must not be empty");
    }
    if (text.length() > MAX_TEXT) {
      throw new InvalidInputException("quantity", "too long: " + Texts.quote(text));
    }
    return PARSED.get(text, Quantity::parseNew);
  }

  private static Quantity parseNew(String text) {
    Matcher m = FORMAT.matcher(text);
    if (!m.matches()) {
      throw new InvalidInputException(
          "quantity",
          "not a quantity: " + Texts.quote(text) + " (expected a number such as 16, 500m or 64Gi)");
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    BigDecimal value;
    if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      value = number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
    } else {
      value = number.multiply(SUFFIXES.get(suffix));
    }
    return new Quantity(text, value.stripTrailingZeros());
  }

  /** A quantity of exactly {@code value} (non-negative), written in plain decimal. */
  public static Quantity of(BigDecimal value) {
    if (value.signum() < 0) {
      throw new InvalidInputException("quantity", "must not be negative");
    }
    BigDecimal stripped = value.stripTrailingZeros();
    return new Quantity(stripped.toPlainString(), stripped);
  }

  /** A whole-number quantity. */
  public static Quantity of(long value) {
    return of(BigDecimal.valueOf(value));
  }

  /** The exact number this quantity denotes (for {@code 500m}: 0.5). */
  public BigDecimal value() {
    return value;
  }

  /** The value as a double, for ratios. */
  public double asDouble() {
    return value.doubleValue();
  }

  /** The sum of two quantities. */
  public Quantity plus(Quantity other) {
    return of(value.add(other.value));
  }

  /** The text as written. */
  @JsonValue
  @Override
  public String toString() {
    return text;
  }

  /** Quantities are equal when they denote the same number ({@code 1k} equals {@code 1000}). */
  @Override
  public boolean equals(Object o) {
    return o instanceof Quantity q && value.compareTo(q.value) == 0;
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public int compareTo(Quantity o) {
    return value.compareTo(o.value);
  }
}
