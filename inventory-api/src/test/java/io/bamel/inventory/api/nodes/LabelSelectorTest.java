package io.bamel.inventory.api.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.api.QueryText;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The selector grammar, checked against the cases apimachinery's {@code labels.Parse} decides (its
 * selector_test.go): whitespace, empty values, set forms, and {@code !=}/{@code notin} on a missing
 * key.
 */
class LabelSelectorTest {

  /** {@code k=v;k2=v2} (empty: no labels). */
  private static Map<String, String> labels(String text) {
    return QueryText.pairs(text, ";");
  }

  @ParameterizedTest(name = "[{0}] on [{1}] -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''                       | x=a       | true",
        "'   '                    | ''        | true",
        "x=a                      | x=a       | true",
        "x=a                      | x=b       | false",
        "x=a                      | ''        | false",
        "x==a                     | x=a       | true",
        "' x = a '                | x=a       | true",
        "x!=a                     | x=b       | true",
        "x!=a                     | x=a       | false",
        "x!=a                     | ''        | true",
        "x=                       | x=        | true",
        "x=                       | x=a       | false",
        "x=                       | ''        | false",
        "x!=                      | ''        | true",
        "x!=                      | x=        | false",
        "x in (a,b)               | x=b       | true",
        "x in (a,b)               | x=c       | false",
        "x in (a,b)               | ''        | false",
        "'x in ( a , b )'         | x=a       | true",
        "x in(a)                  | x=a       | true",
        "x in ()                  | x=        | true",
        "x in ()                  | x=a       | false",
        "x in (a,)                | x=        | true",
        "x in (,a)                | x=        | true",
        "x notin (a,b)            | x=c       | true",
        "x notin (a,b)            | x=a       | false",
        "x notin (a,b)            | ''        | true",
        "x                        | x=        | true",
        "x                        | y=a       | false",
        "!x                       | y=a       | true",
        "!x                       | x=a       | false",
        "'! x'                    | ''        | true",
        "'x=a,y'                  | x=a;y=b   | true",
        "'x=a,y'                  | x=a       | false",
        "'x=a,!y,z in (1,2)'      | x=a;z=2   | true",
        "'x=a,x=b'                | x=a       | false",
        "example.com/tier=gold    | example.com/tier=gold | true",
        "x=in                     | x=in      | true",
      })
  void matches(String selector, String labels, boolean expected) {
    assertThat(LabelSelector.parse(selector).matches(labels(labels))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{0}] -> character {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "x=a,          | 5  | expected a label key, found the end",
        ",x=a          | 1  | expected a label key, found ','",
        "x=a,,y        | 5  | expected a label key, found ','",
        "x=a b         | 5  | expected ',' or the end of the selector, found 'b'",
        "x=a=b         | 4  | expected ',' or the end of the selector, found '='",
        "x in a        | 6  | expected '(' after in or notin, found 'a'",
        "x in (a       | 8  | expected ',' or ')', found the end",
        "x in (a b)    | 9  | expected ',' or ')', found 'b'",
        "x notin       | 8  | expected '(' after in or notin",
        "x foo         | 3  | expected an operator",
        "=a            | 1  | expected a label key, found '='",
        "in=a          | 1  | expected a label key, found 'in'",
        "!x=a          | 3  | expected ',' or the end of the selector, found '='",
        "x>1           | 2  | the operator '>' is not supported",
        "x=(a)         | 3  | expected a label value, found '('",
        "-bad!=a       | 1  | not a valid label key: '-bad'",
        "x=a.          | 3  | not a valid label value: 'a.'",
        "x in (a,b-)   | 9  | not a valid label value: 'b-'",
        "!             | 2  | expected a label key, found the end",
      })
  void rejectsWithThePosition(String selector, int position, String message) {
    assertThatThrownBy(() -> LabelSelector.parse(selector))
        .isInstanceOfSatisfying(
            LabelSelector.SyntaxError.class,
            e -> {
              assertThat(e.position()).isEqualTo(position);
              assertThat(e.getMessage()).startsWith("at character " + position + ": ");
              assertThat(e.getMessage()).contains(message);
            });
  }

  @Test
  void equivalentSpellingsHaveOneCanonicalText() {
    assertThat(LabelSelector.parse("z, a==1 ,b in (y,x)").canonical())
        .isEqualTo(LabelSelector.parse("b in(x,y),a=1,z,z").canonical())
        .isEqualTo("a=1,b in (x,y),z");
    assertThat(LabelSelector.parse("a!=1").canonical())
        .isNotEqualTo(LabelSelector.parse("a=1").canonical());
    assertThat(LabelSelector.parse("a notin (1)").canonical()).isEqualTo("a notin (1)");
    assertThat(LabelSelector.parse("!a").canonical()).isEqualTo("!a");
  }
}
