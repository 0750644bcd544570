package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.store.Codec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NetBoxFiltersTest {

  private static final String DEVICE =
      """
      {"id": 7, "site": {"slug": "ams1"}, "role": {"slug": "server"},
       "status": {"value": "active", "label": "Active"}, "tenant": {"slug": "ml"},
       "tags": [{"slug": "k8s"}, {"slug": "gpu"}]}
      """;

  private static JsonNode device() throws Exception {
    return Codec.mapper().readTree(DEVICE);
  }

  @Test
  void buildsNetBoxsQuery() {
    NetBoxFilters f =
        new NetBoxFilters(
            List.of("ams1", "ams2"), List.of("k8s"), List.of("server"), List.of(" active "), null);
    assertThat(f.query())
        .containsExactly(
            Map.entry("site", "ams1"),
            Map.entry("site", "ams2"),
            Map.entry("tag", "k8s"),
            Map.entry("role", "server"),
            Map.entry("status", "active"));
    assertThat(NetBoxFilters.NONE.isEmpty()).isTrue();
  }

  @Test
  void judgesAWebhooksDeviceAsTheQueryDoes() throws Exception {
    JsonNode d = device();
    assertThat(NetBoxFilters.NONE.matches(d)).isTrue();
    assertThat(new NetBoxFilters(List.of("ams2", "ams1"), null, null, null, null).matches(d))
        .isTrue();
    assertThat(new NetBoxFilters(List.of("fra1"), null, null, null, null).matches(d)).isFalse();
    assertThat(new NetBoxFilters(null, List.of("k8s", "gpu"), null, null, null).matches(d))
        .isTrue();
    assertThat(new NetBoxFilters(null, List.of("k8s", "spare"), null, null, null).matches(d))
        .as("every tag is required")
        .isFalse();
    assertThat(new NetBoxFilters(null, null, List.of("server"), null, null).matches(d)).isTrue();
    assertThat(new NetBoxFilters(null, null, null, List.of("planned"), null).matches(d)).isFalse();
    assertThat(new NetBoxFilters(null, null, null, null, List.of("ml")).matches(d)).isTrue();
    JsonNode old = Codec.mapper().readTree("{\"device_role\": {\"slug\": \"server\"}}");
    assertThat(new NetBoxFilters(null, null, List.of("server"), null, null).matches(old))
        .as("NetBox 3.x device_role")
        .isTrue();
  }
}
