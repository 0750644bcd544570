package io.bamel.inventory.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.store.Codec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The examples of RFC 7396, appendix A, as a table: target, patch, result. */
class MergePatchTest {

  @ParameterizedTest(name = "{0} + {1} = {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":\"b\"}               | {\"a\":\"c\"}               | {\"a\":\"c\"}",
        "{\"a\":\"b\"}               | {\"b\":\"c\"}               | {\"a\":\"b\",\"b\":\"c\"}",
        "{\"a\":\"b\"}               | {\"a\":null}                | {}",
        "{\"a\":\"b\",\"b\":\"c\"}   | {\"a\":null}                | {\"b\":\"c\"}",
        "{\"a\":[\"b\"]}             | {\"a\":\"c\"}               | {\"a\":\"c\"}",
        "{\"a\":\"c\"}               | {\"a\":[\"b\"]}             | {\"a\":[\"b\"]}",
        "{\"a\":{\"b\":\"c\"}}       | {\"a\":{\"b\":\"d\",\"c\":null}} | {\"a\":{\"b\":\"d\"}}",
        "{\"a\":[{\"b\":\"c\"}]}     | {\"a\":[1]}                 | {\"a\":[1]}",
        "[\"a\",\"b\"]               | [\"c\",\"d\"]               | [\"c\",\"d\"]",
        "{\"a\":\"b\"}               | [\"c\"]                     | [\"c\"]",
        "{\"a\":\"foo\"}             | null                        | null",
        "{\"a\":\"foo\"}             | \"bar\"                     | \"bar\"",
        "{\"e\":null}                | {\"a\":1}                   | {\"e\":null,\"a\":1}",
        "[1,2]                       | {\"a\":\"b\",\"c\":null}    | {\"a\":\"b\"}",
        "{}                          | {\"a\":{\"bb\":{\"ccc\":null}}} | {\"a\":{\"bb\":{}}}",
      })
  void appliesAsRfc7396Says(String target, String patch, String result) throws Exception {
    JsonNode t = Codec.mapper().readTree(target);
    JsonNode before = t.deepCopy();
    JsonNode applied = MergePatch.apply(t, Codec.mapper().readTree(patch));
    assertThat(applied).isEqualTo(Codec.mapper().readTree(result));
    assertThat(t).as("the target is not modified").isEqualTo(before);
  }
}
