package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void columnsAreLeftAlignedWithThreeSpacesAndNoTrailingBlanks() {
    String text =
        new Table(List.of("NAME", "POOL", "STATE"))
            .add(List.of("r1-u07", "gpu", "ready"))
            .add(List.of("r10-cpu-01", "general", "off"))
            .render();
    assertThat(text)
        .isEqualTo(
            "NAME         POOL      STATE\n"
                + "r1-u07       gpu       ready\n"
                + "r10-cpu-01   general   off\n");
  }

  @Test
  void emptyCellsShowNoneAndHeadersCanBeLeftOut() {
    String text = new Table(List.of("NAME", "RACK")).add(Arrays.asList("a", null)).render(false);
    // widths still count the headers, so rows printed apart stay aligned with a header
    assertThat(text).isEqualTo("a      <none>\n");
  }

  @Test
  void aRowOfTheWrongWidthIsRefused() {
    assertThatThrownBy(() -> new Table(List.of("A", "B")).add(List.of("x")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
