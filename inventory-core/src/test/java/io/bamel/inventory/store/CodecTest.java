package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

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
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

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

  private static String encode(Object value) {
    return new String(Codec.encode(value), StandardCharsets.UTF_8);
  }

  private static <T> T decode(String json, Class<T> type) {
    return Codec.decode(json.getBytes(StandardCharsets.UTF_8), type);
  }

  static Stream<Arguments> durations() {
    return Stream.of(
        arguments(
            named(
                "90 minutes",
                PoolConfig.builder().scaleDownUnneededTime(Duration.ofMinutes(90)).build()),
            List.of("\"scaleDownUnneededTime\":\"1h30m\"")),
        arguments(
            named(
                "90 seconds", PoolConfig.builder().scaleUpCooldown(Duration.ofSeconds(90)).build()),
            List.of("\"scaleUpCooldown\":\"1m30s\"")),
        arguments(
            named(
                "whole minutes",
                PoolConfig.builder()
                    .scaleUpTrendWindow(Duration.ofMinutes(20))
                    .scaleUpLookahead(Duration.ofMinutes(5))
                    .build()),
            List.of("\"scaleUpTrendWindow\":\"20m\"", "\"scaleUpLookahead\":\"5m\"")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("durations")
  void durationsAreWrittenTheKubernetesWay(PoolConfig config, List<String> written) {
    String json = encode(config);
    assertThat(json).contains(written);
    assertThat(decode(json, PoolConfig.class)).isEqualTo(config);
  }

  @Test
  void durationsAreReadInIsoFormTooAndAnAbsentOneIsNull() {
    assertThat(decode("{\"delayAfterScaleUp\":\"PT2M\"}", PoolConfig.class).delayAfterScaleUp())
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(decode("{\"minNodes\":1}", PoolConfig.class).scaleUpCooldown()).isNull();
  }

  @Test
  void duplicateKeysAreRejected() {
    byte[] json = "{\"name\":\"a\",\"name\":\"b\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Codec.decode(json, NodeSpec.class))
        .isInstanceOf(UncheckedIOException.class)
        .hasStackTraceContaining("Duplicate field 'name'");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {"powerState":"maybe"}     | expected one of on, off
          # unknown is an observed state only: a spec cannot desire it
          {"powerState":"unknown"}   | expected one of on, off
          {"resources":{"cpu":"-3"}} | not a quantity
          """)
  void badEnumAndQuantityAreRejected(String json, String message) {
    assertThatThrownBy(() -> decode(json, NodeSpec.class)).hasStackTraceContaining(message);
  }
}
