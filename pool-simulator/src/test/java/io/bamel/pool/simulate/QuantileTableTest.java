package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class QuantileTableTest {
  @Test
  void passesThroughItsPointsAndInterpolatesInTheLogarithm() {
    QuantileTable table = QuantileTable.of(0, 1, 0.5, 100, 1, 10000);
    assertThat(table.quantile(0)).isEqualTo(1);
    assertThat(table.quantile(0.5)).isCloseTo(100, within(1e-9));
    assertThat(table.quantile(1)).isCloseTo(10000, within(1e-6));
    assertThat(table.quantile(0.25)).isCloseTo(10, within(1e-9)); // geometric midpoint
    assertThat(table.quantile(0.75)).isCloseTo(1000, within(1e-6));
  }

  @Test
  void meanOfALogLinearPiece() {
    // u -> e^u on [0, 1]: mean = integral of e^u = e - 1
    assertThat(QuantileTable.of(0, 1, 1, Math.E).mean()).isCloseTo(Math.E - 1, within(1e-12));
    assertThat(QuantileTable.of(0, 3, 1, 3).mean()).isEqualTo(3);
  }

  @Test
  void refusesTablesThatAreNotADistribution() {
    assertThatThrownBy(() -> QuantileTable.of(0.1, 1, 1, 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QuantileTable.of(0, 5, 0.5, 4, 1, 6))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QuantileTable.of(0, 0, 1, 6))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> QuantileTable.of(0, 1, 1, 2).quantile(1.5))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
