package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeQueryTest {

  @Test
  void noFlagsIsNoFilter() {
    assertThat(NodeQuery.of(null, List.of(), List.of()).queryString()).isEmpty();
    assertThat(NodeQuery.of(" ", null, null).legacyLabels()).isNull();
  }

  @Test
  void poolsAndStatesAreRepeatedParametersWhetherRepeatedOrCommaSeparated() {
    NodeQuery q = NodeQuery.of(null, List.of("gpu,general", "gpu"), List.of("ready", "off"));
    assertThat(q.queryString()).isEqualTo("pool=gpu&pool=general&state=ready&state=off");
  }

  @Test
  void theSelectorIsSentAsLabelSelectorEncoded() {
    NodeQuery q = NodeQuery.of("env in (a,b),!gpu", List.of("gpu"), List.of());
    assertThat(q.queryString()).isEqualTo("labelSelector=env%20in%20%28a%2Cb%29%2C%21gpu&pool=gpu");
  }

  @Test
  void anEqualitySelectorAlsoHasTheOlderLabelsForm() {
    NodeQuery q = NodeQuery.of("zone = a,rack==R1", List.of(), List.of("ready"));
    assertThat(q.legacyLabels()).isEqualTo("labels=zone%3Da%2Crack%3DR1&state=ready");
  }

  @Test
  void setBasedOrNegatedSelectorsHaveNoOlderForm() {
    assertThat(NodeQuery.of("zone!=a", List.of(), List.of()).legacyLabels()).isNull();
    assertThat(NodeQuery.of("env in (a)", List.of(), List.of()).legacyLabels()).isNull();
    assertThat(NodeQuery.of("!gpu", List.of(), List.of()).legacyLabels()).isNull();
    assertThat(NodeQuery.of("gpu", List.of(), List.of()).legacyLabels()).isNull();
  }
}
