package io.bamel.inventory.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.store.Codec;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A bad value in a field of an enum type ({@code powerState}, {@code powerPolicy}, {@code
 * scaleDirection}) gets the API's own words: the field's path, and either the value quoted with the
 * accepted ones or the kind of value the field takes. The texts were read from the API before the
 * enums shared one deserializer, and pin that they did not change.
 */
class EnumErrorTextsTest {

  private static final String INVALID = "the request has an invalid field | ";
  private static final String ON_OFF = "; expected one of on, off";

  /** One bad body, read as {@code type}, and the problem's detail and errors it must get. */
  record Case(String name, Class<?> type, String body, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        node("an unknown word", "\"sideways\"", "powerState: unknown value 'sideways'" + ON_OFF),
        node("the empty string", "\"\"", "powerState: unknown value ''" + ON_OFF),
        node("the Java name", "\"ON\"", "powerState: unknown value 'ON'" + ON_OFF),
        node(
            "unknown, never desired",
            "\"unknown\"",
            "powerState: unknown value 'unknown'" + ON_OFF),
        node("a whole number", "1", "powerState: unknown value '1'" + ON_OFF),
        node("a fraction", "1.5", "powerState: unknown value '1.5'" + ON_OFF),
        node("a boolean", "true", "powerState: unknown value 'true'" + ON_OFF),
        node("an object", "{}", "powerState: must be one of on, off"),
        node("an array", "[]", "powerState: must be one of on, off"),
        node("an array of one", "[\"on\"]", "powerState: must be one of on, off"),
        new Case(
            "a power policy",
            NodeSpec.class,
            "{\"powerPolicy\":\"auto\"}",
            INVALID + "powerPolicy: unknown value 'auto'; expected one of pool, manual"),
        new Case(
            "a trigger's direction",
            PoolConfig.class,
            "{\"triggers\":[{\"name\":\"q\",\"metricQuery\":\"sum(q)\",\"threshold\":1,"
                + "\"duration\":\"1m\",\"scaleDirection\":\"sideways\"}]}",
            INVALID
                + "triggers[0].scaleDirection: unknown value 'sideways'; expected one of up, down"));
  }

  private static Case node(String name, String powerState, String error) {
    return new Case(name, NodeSpec.class, "{\"powerState\":" + powerState + "}", INVALID + error);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aBadEnumValueGetsTheApiWords(Case c) throws Exception {
    JsonNode body = Codec.mapper().readTree(c.body());
    ApiException e =
        catchThrowableOfType(ApiException.class, () -> ApiJson.convert(body, c.type()));
    assertThat(e).as(c.body()).isNotNull();
    String got =
        e.problem().detail()
            + " | "
            + e.problem().errors().stream()
                .map(error -> error.field() + ": " + error.message())
                .collect(Collectors.joining("; "));
    assertThat(got).isEqualTo(c.expected());
  }
}
