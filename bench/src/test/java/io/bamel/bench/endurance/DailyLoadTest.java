package io.bamel.bench.endurance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DailyLoadTest {

  @Test
  void isLowAtNightHighInTheAfternoonAndWithinBounds() {
    for (int pool = 0; pool < 50; pool++) {
      DailyLoad load = DailyLoad.forPool(pool, 15);
      assertThat(load.at(3 * 60)).isLessThan(0.35);
      assertThat(load.at(15 * 60)).isGreaterThan(0.6);
      for (int minute = 0; minute < 1440; minute++) {
        assertThat(load.at(minute)).isBetween(0.05, 0.95);
      }
    }
  }

  @Test
  void isTheSameForTheSameSeedAndPool() {
    assertThat(DailyLoad.forPool(7, 15)).isEqualTo(DailyLoad.forPool(7, 15));
    assertThat(DailyLoad.forPool(7, 15)).isNotEqualTo(DailyLoad.forPool(8, 15));
  }
}
