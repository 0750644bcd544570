package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The serials that identify nothing. */
class PlaceholderSerialsTest {

  @AfterEach
  void reset() {
    PlaceholderSerials.configure(List.of());
  }

  @ParameterizedTest(name = "[{0}] placeholder: {1}")
  @CsvSource({
    "To be filled by O.E.M., true",
    "' TO BE FILLED BY O.E.M.  ', true",
    "Default string, true",
    "System Serial Number, true",
    "Chassis Serial Number, true",
    "Not Specified, true",
    "not available, true",
    "N/A, true",
    "None, true",
    "0, true",
    "0123456789, true",
    "123456789, true",
    "XXXXXXXXXX, true",
    "'', true",
    "'   ', true",
    "CZ2D1234AB, false",
    "00, false",
    "To be filled, false",
  })
  void theDefaultList(String serial, boolean placeholder) {
    assertThat(PlaceholderSerials.isPlaceholder(serial)).isEqualTo(placeholder);
    assertThat(PlaceholderSerials.identifying(serial)).isEqualTo(placeholder ? null : serial);
  }

  @Test
  void theConfigurationAddsValues() {
    assertThat(PlaceholderSerials.isPlaceholder("SN-UNSET")).isFalse();
    PlaceholderSerials.configure(List.of(" sn-unset ", ""));
    assertThat(PlaceholderSerials.isPlaceholder("SN-UNSET")).isTrue();
    assertThat(PlaceholderSerials.isPlaceholder("Default string")).isTrue();
    assertThat(PlaceholderSerials.isPlaceholder(null)).isTrue();
  }
}
