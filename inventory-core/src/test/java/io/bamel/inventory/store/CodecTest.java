package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.ResourceCapacity;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CodecTest {

  @Test
  void roundTripsASpec() {
    NodeSpec spec =
        NodeSpec.builder()
            .name("n1")
            .pool("gpu")
            .resources(ResourceCapacity.of("64", "512Gi", "8"))
            .desiredPower(DesiredPower.ON)
            .build();
    NodeSpec back = Codec.decode(Codec.encode(spec), NodeSpec.class);
    assertThat(back).isEqualTo(spec);
    assertThat(new String(Codec.encode(spec), StandardCharsets.UTF_8))
        .contains("\"powerState\":\"on\"", "\"memory\":\"512Gi\"")
        .doesNotContain("null");
  }

  @Test
  void unknownFieldsSurviveADecodeModifyEncode() throws Exception {
    String newer =
        """
        {"name":"n1","futureField":{"a":[1,2]},"pool":"p",
         "resources":{"cpu":"8","futureResource":"x"},
         "bmcTls":{"insecureSkipVerify":false,"pinnedKey":"abc"}}
        """;
    NodeSpec spec = Codec.decode(newer.getBytes(StandardCharsets.UTF_8), NodeSpec.class);
    NodeSpec changed = spec.toBuilder().pool("q").build();
    JsonNode written = Codec.mapper().readTree(Codec.encode(changed));
    assertThat(written.get("pool").asText()).isEqualTo("q");
    assertThat(written.at("/futureField/a/1").asInt()).isEqualTo(2);
    assertThat(written.at("/resources/futureResource").asText()).isEqualTo("x");
    assertThat(written.at("/bmcTls/pinnedKey").asText()).isEqualTo("abc");
  }

  @Test
  void encodingIsDeterministic() {
    NodeStatus status =
        NodeStatus.builder().stateSince(Instant.parse("2026-01-01T00:00:00Z")).build();
    assertThat(Codec.encode(status))
        .isEqualTo(Codec.encode(Codec.decode(Codec.encode(status), NodeStatus.class)));
  }

  @Test
  void durationsAreWrittenTheKubernetesWay() {
    PoolConfig config = PoolConfig.builder().scaleDownUnneededTime(Duration.ofMinutes(90)).build();
    String json = new String(Codec.encode(config), StandardCharsets.UTF_8);
    assertThat(json).contains("\"scaleDownUnneededTime\":\"1h30m\"");
    assertThat(Codec.decode(json.getBytes(StandardCharsets.UTF_8), PoolConfig.class))
        .isEqualTo(config);
    assertThat(
            Codec.decode(
                    "{\"delayAfterScaleUp\":\"PT2M\"}".getBytes(StandardCharsets.UTF_8),
                    PoolConfig.class)
                .delayAfterScaleUp())
        .isEqualTo(Duration.ofMinutes(2));
    PoolConfig cooldown = PoolConfig.builder().scaleUpCooldown(Duration.ofSeconds(90)).build();
    String cooldownJson = new String(Codec.encode(cooldown), StandardCharsets.UTF_8);
    assertThat(cooldownJson).contains("\"scaleUpCooldown\":\"1m30s\"");
    assertThat(Codec.decode(cooldownJson.getBytes(StandardCharsets.UTF_8), PoolConfig.class))
        .isEqualTo(cooldown);
    assertThat(
            Codec.decode("{\"minNodes\":1}".getBytes(StandardCharsets.UTF_8), PoolConfig.class)
                .scaleUpCooldown())
        .isNull();
    PoolConfig trend =
        PoolConfig.builder()
            .scaleUpTrendWindow(Duration.ofMinutes(20))
            .scaleUpLookahead(Duration.ofMinutes(5))
            .build();
    String trendJson = new String(Codec.encode(trend), StandardCharsets.UTF_8);
    assertThat(trendJson).contains("\"scaleUpTrendWindow\":\"20m\"", "\"scaleUpLookahead\":\"5m\"");
    assertThat(Codec.decode(trendJson.getBytes(StandardCharsets.UTF_8), PoolConfig.class))
        .isEqualTo(trend);
  }

  @Test
  void duplicateKeysAreRejected() {
    byte[] json = "{\"name\":\"a\",\"name\":\"b\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Codec.decode(json, NodeSpec.class))
        .isInstanceOf(UncheckedIOException.class)
        .hasStackTraceContaining("Duplicate field 'name'");
  }

  @Test
  void badEnumAndQuantityAreRejected() {
    assertThatThrownBy(
            () ->
                Codec.decode(
                    "{\"powerState\":\"maybe\"}".getBytes(StandardCharsets.UTF_8), NodeSpec.class))
        .hasStackTraceContaining("expected one of on, off");
    // unknown is an observed state only: a spec cannot desire it
    assertThatThrownBy(
            () ->
                Codec.decode(
                    "{\"powerState\":\"unknown\"}".getBytes(StandardCharsets.UTF_8),
                    NodeSpec.class))
        .hasStackTraceContaining("expected one of on, off");
    assertThatThrownBy(
            () ->
                Codec.decode(
                    "{\"resources\":{\"cpu\":\"-3\"}}".getBytes(StandardCharsets.UTF_8),
                    NodeSpec.class))
        .hasStackTraceContaining("not a quantity");
  }
}
