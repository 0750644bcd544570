package io.bamel.server.client.bmc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BmcOutcomeTest {

  @Test
  void printsOneJsonObjectInOrder() {
    BmcOutcome outcome =
        new BmcOutcome().put("powerState", "on").put("watts", null).put("macs", List.of("a", "b"));
    assertThat(outcome.json())
        .isEqualTo("{\"powerState\":\"on\",\"watts\":null,\"macs\":[\"a\",\"b\"]}");
  }

  @Test
  void printsLinesForAPerson() {
    BmcOutcome outcome = new BmcOutcome().put("powerState", "off").put("watts", null);
    assertThat(outcome.text().lines()).containsExactly("powerState: off", "watts: -");
  }

  @Test
  void parsesActions() {
    assertThat(BmcAction.parse("Status")).isEqualTo(BmcAction.STATUS);
    assertThat(BmcAction.parse(" pxe ")).isEqualTo(BmcAction.PXE);
  }
}
