package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CanonicalTest {

  @Test
  void makesEachKeysValueOnceAndSharesIt() {
    Canonical<String, StringBuilder> canonical = new Canonical<>(8);
    AtomicInteger made = new AtomicInteger();
    StringBuilder first = canonical.get("a", k -> new StringBuilder(k + made.incrementAndGet()));
    StringBuilder second = canonical.get("a", k -> new StringBuilder(k + made.incrementAndGet()));
    assertThat(second).isSameAs(first);
    assertThat(made).hasValue(1);
  }

  @Test
  void beyondItsBoundMakesFreshValuesAndKeepsNoMore() {
    Canonical<Integer, Object> canonical = new Canonical<>(2);
    canonical.get(1, k -> new Object());
    canonical.get(2, k -> new Object());
    Object third = canonical.get(3, k -> new Object());
    assertThat(canonical.get(3, k -> new Object())).isNotSameAs(third);
    assertThat(canonical.size()).isEqualTo(2);
    assertThat(canonical.get(1, k -> new Object())).isSameAs(canonical.get(1, k -> new Object()));
  }

  @Test
  void keepsNothingWhenMakingFails() {
    Canonical<String, Object> canonical = new Canonical<>(8);
    assertThatThrownBy(
            () ->
                canonical.get(
                    "bad",
                    k -> {
                      throw new IllegalArgumentException(k);
                    }))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(canonical.size()).isZero();
  }
}
