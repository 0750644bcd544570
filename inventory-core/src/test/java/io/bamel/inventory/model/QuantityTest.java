package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantityTest {

  @ParameterizedTest
  @CsvSource({
    "16, 16",
    "500m, 0.5",
    "1.5, 1.5",
    "64Gi, 68719476736",
    "1Ki, 1024",
    "2k, 2000",
    "3M, 3000000",
    "1e3, 1000",
    "1E3, 1000",
    "2E, 2000000000000000000",
    "0, 0",
    ".5, 0.5"
  })
  void parsesKubernetesQuantities(String text, String value) {
    Quantity q = Quantity.parse(text);
    assertThat(q.value()).isEqualByComparingTo(new BigDecimal(value));
    assertThat(q.toString()).isEqualTo(text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"-1", "abc", "1.2.3", "16 ", " 16", "1Gb", "1g", "1i", "Gi", "", "1e", "0x10"})
  void rejectsInvalidQuantities(String text) {
    assertThatThrownBy(() -> Quantity.parse(text)).isInstanceOf(InvalidInputException.class);
  }

  @Test
  void comparesByValueNotText() {
    assertThat(Quantity.parse("1k")).isEqualTo(Quantity.parse("1000"));
    assertThat(Quantity.parse("1k").hashCode()).isEqualTo(Quantity.parse("1000").hashCode());
    assertThat(Quantity.parse("1Ki")).isGreaterThan(Quantity.parse("1k"));
    assertThat(Quantity.parse("500m").plus(Quantity.parse("1500m"))).isEqualTo(Quantity.of(2));
  }

  @Test
  void rejectsHugeInputWithShortMessage() {
    String huge = "9".repeat(1_000_000);
    assertThatThrownBy(() -> Quantity.parse(huge))
        .isInstanceOf(InvalidInputException.class)
        .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(200));
  }

  @Test
  void sharesOneInstancePerTextAndKeepsEachText() {
    assertThat(Quantity.parse("512Gi")).isSameAs(Quantity.parse(new String("512Gi")));
    Quantity plain = Quantity.parse("64");
    Quantity decimal = Quantity.parse("64.0");
    assertThat(decimal).isEqualTo(plain).isNotSameAs(plain);
    assertThat(decimal.toString()).isEqualTo("64.0");
    assertThat(plain.toString()).isEqualTo("64");
  }
}
