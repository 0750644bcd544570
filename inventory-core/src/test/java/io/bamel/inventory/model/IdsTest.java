package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdsTest {

  @ParameterizedTest
  @ValueSource(strings = {"n1", "node-01", "r1.u07", "a", "0", "x123456789-x123456789-x123456789"})
  void acceptsValidIds(String id) {
    assertThat(Ids.problem(id)).isNull();
    assertThat(Ids.require("id", id)).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a/b",
        "..",
        "a..b",
        "",
        "Node1",
        "NODE",
        "nöde",
        "节点",
        "-a",
        "a-",
        ".a",
        "a.",
        "a b",
        "a_b",
        "a\u0000b",
        "/",
        "a/../b",
        "%2e%2e"
      })
  void rejectsUnsafeIds(String id) {
    assertThat(Ids.isValid(id)).isFalse();
    assertThatThrownBy(() -> Ids.require("id", id))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("id: ");
  }

  @org.junit.jupiter.api.Test
  void rejectsIdsLongerThan63() {
    assertThat(Ids.isValid("a".repeat(63))).isTrue();
    assertThat(Ids.problem("a".repeat(64))).contains("at most 63");
    assertThat(Ids.problem(null)).isEqualTo("must not be empty");
  }
}
