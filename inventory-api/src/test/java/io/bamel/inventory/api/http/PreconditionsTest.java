package io.bamel.inventory.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PreconditionsTest {

  /** If-Match header (NONE: absent), current revision (0: absent), the guard or 412. */
  @ParameterizedTest(name = "If-Match {0} at {1} -> {2}")
  @CsvSource({
    "NONE, 7, none",
    "NONE, 0, none",
    "*, 7, 7",
    "*, 0, 412",
    "'\"7\"', 7, 7",
    "'\"6\"', 7, 412",
    "'\"7\"', 0, 412",
    "'W/\"7\"', 7, 412",
    "7, 7, 412",
    "'\"\"', 7, 412",
    "garbage, 7, 412",
  })
  void checks(String header, long current, String expected) {
    Preconditions.IfMatch ifMatch = Preconditions.parse(header.equals("NONE") ? null : header);
    if (expected.equals("412")) {
      assertThatThrownBy(() -> Preconditions.check(ifMatch, current, "node x"))
          .isInstanceOfSatisfying(
              ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(412));
    } else {
      assertThat(Preconditions.check(ifMatch, current, "node x"))
          .isEqualTo(
              expected.equals("none")
                  ? OptionalLong.empty()
                  : OptionalLong.of(Long.parseLong(expected)));
    }
  }
}
