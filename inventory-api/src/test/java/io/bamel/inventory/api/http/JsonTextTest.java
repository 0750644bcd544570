package io.bamel.inventory.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.api.BadRequestsIT;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PoolConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTextTest {

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void acceptsEveryUnicodeCharacterAsUtf8() {
    for (String text :
        List.of(
            "{}", "{\"name\":\"é\"}", "{\"name\":\"€ 😀 \\ud83d\\ude00\"}", "\"\u07ff\uffff\"")) {
      assertThat(JsonText.encodingProblem(utf8(text))).as(text).isNull();
      assertThat(JsonText.surrogateProblem(ApiJson.parse(utf8(text)))).as(text).isNull();
    }
  }

  @Test
  void refusesWhatIsNotStrictUtf8() {
    byte[][] bad = {
      {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '{', '}'},
      {'{', 0, '}'},
      {'"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"'},
      {'"', (byte) 0xc1, (byte) 0xbf, '"'},
      {'"', (byte) 0xe0, (byte) 0x9f, (byte) 0xbf, '"'},
      {'"', (byte) 0xf0, (byte) 0x8f, (byte) 0xbf, (byte) 0xbf, '"'},
      {'"', (byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"'},
      {'"', (byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80, '"'},
      {'"', (byte) 0xe2, (byte) 0x82, '"'},
      {'"', (byte) 0xe2},
      {'"', (byte) 0xbf, '"'},
    };
    for (byte[] body : bad) {
      assertThat(JsonText.encodingProblem(body))
          .as(java.util.HexFormat.of().formatHex(body))
          .isNotNull();
      assertThatThrownBy(() -> ApiJson.parse(body))
          .isInstanceOfSatisfying(
              ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(400));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"a\":\"\\ud800\"}",
        "{\"a\":\"\\udc00x\"}",
        "{\"a\":[\"ok\",\"\\ud83d\"]}",
        "{\"a\":{\"\\udfff\":1}}",
        "[\"\\ude00\\ud83d\"]"
      })
  void refusesUnpairedSurrogateEscapes(String json) {
    assertThat(JsonText.maySpellSurrogate(utf8(json))).isTrue();
    String upper = json.replace("\\ud", "\\uD").replace("00", "0A");
    assertThat(JsonText.maySpellSurrogate(utf8(upper))).isTrue();
    assertThatThrownBy(() -> ApiJson.parse(utf8(upper))).isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> ApiJson.parse(utf8(json)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.problem().status()).isEqualTo(400);
              assertThat(e.problem().detail()).contains("unpaired UTF-16 surrogate");
            });
  }

  /**
   * A body is walked for surrogates only when its bytes spell a surrogate escape: every body that
   * holds one does (above), and a body that spells none holds none, whatever else it escapes.
   */
  @Test
  void onlyBodiesSpellingASurrogateEscapeAreWalked() {
    for (String json :
        List.of(
            "{\"name\":\"\\u00e9 \\ud7ff \\ue000 \\u0064800 \\\\ud800\"}",
            "{\"a\":[\"\\n\\t\\\"\\/\", \"€ 😀\"], \"\\uD7FF\":\"\\u0D80\"}",
            "{\"d800\":\"ud800 \\\\ \\\\u\"}")) {
      boolean spells = JsonText.maySpellSurrogate(utf8(json));
      assertThat(JsonText.surrogateProblem(ApiJson.parse(utf8(json)))).as(json).isNull();
      assertThat(spells).as(json).isEqualTo(json.contains("\\\\ud800"));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{",
        "}",
        "{\"a\":}",
        "{\"a\" 1}",
        "nul",
        "{} {}",
        "{\"a\":1,}",
        "{'a':1}",
        "{\"a\":\"x",
        "{\"a\":\"\\uZZZZ\"}",
        "{\"a\":01}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":\"tab\there\"}",
        "[-]"
      })
  void syntaxErrorsAreWordedForAPersonWithTheirPlace(String json) {
    assertThatThrownBy(() -> ApiJson.parse(utf8(json)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              String detail = e.problem().detail();
              assertThat(detail).startsWith("invalid JSON");
              assertThat(BadRequestsIT.JAVA_NAMES.matcher(detail).find()).as(detail).isFalse();
            });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"rackPosition\":\"7\"}",
        "{\"rackPosition\":99999999999999999999}",
        "{\"rackPosition\":1e400}",
        "{\"name\":[]}",
        "{\"labels\":[]}",
        "{\"labels\":{\"k\":null}}",
        "{\"labels\":{\"k\":{}}}",
        "{\"resources\":{\"cpu\":true}}",
        "{\"resources\":{\"custom\":{\"x\":null}}}",
        "{\"powerInterface\":[]}",
        "{\"bmcTls\":\"on\"}"
      })
  void wrongTypesNameTheFieldAndNoJavaType(String json) {
    assertThatThrownBy(() -> ApiJson.convert(ApiJson.parse(utf8(json)), NodeSpec.class))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.problem().errors()).isNotEmpty();
              assertThat(e.problem().errors().get(0).field()).isNotEmpty();
              String text = e.problem().errors().toString();
              assertThat(BadRequestsIT.JAVA_NAMES.matcher(text).find()).as(text).isFalse();
            });
  }

  /**
   * A power interface's settings are opaque to the model (kept as the JSON that came), so a wrong
   * type inside them is found by the interface's own check when the spec is validated, with the
   * field named and no Java type in the text.
   */
  @Test
  void wrongTypesInsideInterfaceSettingsAreNamedByValidation() {
    NodeSpec spec =
        ApiJson.convert(
            ApiJson.parse(utf8("{\"wakeOnLan\":{\"probePort\":\"x\"}}")), NodeSpec.class);
    assertThatThrownBy(spec::validate)
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e -> {
              assertThat(e.errors())
                  .anySatisfy(f -> assertThat(f.field()).isEqualTo("wakeOnLan.probePort"));
              String text = e.errors().toString();
              assertThat(BadRequestsIT.JAVA_NAMES.matcher(text).find()).as(text).isFalse();
            });
  }

  @Test
  void bamelsOwnMessagesAreKeptAndNullEntriesAreNamed() {
    assertThatThrownBy(
            () ->
                ApiJson.convert(
                    ApiJson.parse(utf8("{\"scaleDownUnneededTime\":\"10 parsecs\"}")),
                    PoolConfig.class))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.problem().errors().get(0).message())
                    .isEqualTo("expected a duration such as 90s or 10m"));
    assertThatThrownBy(
            () ->
                ApiJson.convert(ApiJson.parse(utf8("{\"labels\":{\"k\":null}}")), PoolConfig.class))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.problem().errors().get(0))
                    .satisfies(
                        f -> {
                          assertThat(f.field()).isEqualTo("labels.'k'");
                          assertThat(f.message()).isEqualTo("must not be null");
                        }));
  }
}
