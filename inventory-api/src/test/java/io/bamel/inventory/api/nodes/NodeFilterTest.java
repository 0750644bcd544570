package io.bamel.inventory.api.nodes;

import static io.bamel.inventory.api.QueryText.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.bamel.inventory.api.QueryText;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Problem;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeFilterTest {

  private static final Node NODE =
      new Node(
          "n1",
          NodeSpec.builder()
              .pool("gpu")
              .rack("r1")
              .site("dc1")
              .serial("SN1")
              .macAddress("0C-C4-7A-00-00-01")
              .mgmtAddress("192.0.2.1")
              .labels(Map.of("zone", "a", "tier", "gold"))
              .build(),
          5,
          NodeStatus.builder().state(NodeState.READY).observedPower(ObservedPower.ON).build(),
          6,
          null);

  /** The problem of the {@link ApiException} that {@code parse} must throw. */
  private static Problem refusal(ThrowingCallable parse) {
    Throwable thrown = catchThrowable(parse);
    assertThat(thrown).isInstanceOf(ApiException.class);
    return ((ApiException) thrown).problem();
  }

  private static Map<String, String> query(String text) {
    return QueryText.pairs(text, "&");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pool=gpu&pool=cpu                  | true",
        "pool=cpu,gpu                       | true",
        "pool=cpu&pool=x,y                  | false",
        "pool=cpu,gpu&rack=r2               | false",
        "pool=cpu,gpu&rack=r2,r1            | true",
        "state=off,ready&site=dc2,dc1       | true",
        "state=off&state=joining            | false",
        "labelSelector=zone=a               | true",
        "labelSelector=zone in (b,c)        | false",
        "labelSelector=zone notin (b,c),!gpu | true",
        "labelSelector=gpu!=true            | true",
        "labelSelector=tier&labels=zone=a   | true",
        "labelSelector=tier&labels=zone=b   | false",
        "labelSelector=                     | true",
        "name=n                             | true",
        "name=n1                            | true",
        "name=n2                            | false",
        "q=SN                               | true",
        "q=c4:7a                            | true",
        "q=192.0.2                          | true",
        "q=GOLD                             | true",
        "q=DC1                              | true",
        "q=zone                             | true",
        "q=https                            | false",
        "q=gpu                              | false",
        "q=zzz                              | false",
      })
  void severalValuesSelectorsNamesAndText(String filter, boolean expected) {
    assertThat(NodeFilter.parseValues(values(filter)).test(NODE)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "labelSelector=zone in (a           | labelSelector | at character 11: expected ',' or ')'",
        "labelSelector=zone=a,              | labelSelector | at character 8: expected a label key",
        "pool=a,,b                          | pool          | each value must be 1 to",
        "state=ready,bogus                  | state         | unknown value 'bogus'",
        "serial=a&serial=b                  | serial        | must be given once",
        "name=                              | name          | must be 1 to 63",
        "q=                                 | q             | must be 1 to",
      })
  void rejectsNamingTheParameter(String filter, String field, String message) {
    Problem problem = refusal(() -> NodeFilter.parseValues(values(filter)));
    assertThat(problem.status()).isEqualTo(400);
    assertThat(problem.errors())
        .anySatisfy(
            err -> {
              assertThat(err.field()).isEqualTo(field);
              assertThat(err.message()).contains(message);
            });
  }

  @Test
  void aSyncScopeTakesEachValueAsItIsCommasIncluded() {
    Node berlin = new Node("b1", NodeSpec.builder().site("Berlin, DC1").build(), 5, null, 0, null);
    Node other = new Node("b2", NodeSpec.builder().site("Berlin").build(), 5, null, 0, null);
    NodeFilter scope = NodeFilter.parse(Map.of("site", "Berlin, DC1"));
    assertThat(scope.test(berlin)).isTrue();
    assertThat(scope.test(other)).isFalse();
    NodeFilter listing = NodeFilter.parseValues(Map.of("site", List.of("Berlin, DC1")));
    assertThat(listing.test(other)).isTrue();
  }

  /** The canonical text of the listing filter {@code filter}, a query string. */
  private static String canonical(String filter) {
    return NodeFilter.parseValues(values(filter)).canonical();
  }

  @Test
  void theCanonicalTextIsTheSameForTheSameSelectionAndDiffersOtherwise() {
    String a = canonical("pool=b,a&state=ready&labelSelector=x,y=1");
    assertThat(canonical("pool=a&pool=b&labelSelector=y==1, x&state=ready")).isEqualTo(a);
    assertThat(canonical("pool=a&labelSelector=y=1,x&state=ready")).isNotEqualTo(a);
    // The older labels form is the same selection as its selector.
    assertThat(canonical("labels=y=1")).isEqualTo(canonical("labelSelector=y=1"));
    // Every new filter is part of it, and a value cannot pass for another filter.
    List<String> distinct =
        List.of(
            "name=n",
            "q=n",
            "rack=n",
            "site=n",
            "serial=n",
            "labelSelector=n",
            "labelSelector=!n",
            "q=n\",\"name\":\"n");
    assertThat(distinct.stream().map(NodeFilterTest::canonical).distinct())
        .hasSize(distinct.size());
    assertThat(canonical("q=N")).isEqualTo(canonical("q=n"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      textBlock =
          """
          '', true
          pool=gpu, true
          pool=cpu, false
          rack=r1&site=dc1, true
          site=dc2, false
          serial=SN1, true
          mac=0c:c4:7a:00:00:01, true
          mac=0C-C4-7A-00-00-02, false
          mgmtAddress=192.0.2.1, true
          state=ready, true
          state=off, false
          powerState=on, true
          powerState=unknown, false
          labels=zone=a, true
          labels=zone=a&pool=gpu, true
          labels=zone=b, false
          """)
  void matches(String filter, boolean expected) {
    assertThat(NodeFilter.parse(query(filter)).test(NODE)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource({
    "state=bogus",
    "powerState=maybe",
    "mac=zz",
    "labels=novalue",
    "labels=k=v!",
    "pool="
  })
  void rejectsInvalidFilters(String filter) {
    assertThat(refusal(() -> NodeFilter.parse(query(filter))).status()).isEqualTo(400);
  }

  @ParameterizedTest
  @CsvSource({"pool=a, pool=a, true", "pool=a, pool=b, false", "pool=a, '', false"})
  void continueTokensAreBoundToTheirFilters(String made, String used, boolean valid) {
    NodeFilter filter = NodeFilter.parse(query(made));
    String token = new ContinueToken(42, "n1", filter.canonical().hashCode()).encode();
    if (valid) {
      assertThat(ContinueToken.decode(token, NodeFilter.parse(query(used))))
          .isEqualTo(new ContinueToken(42, "n1", filter.canonical().hashCode()));
    } else {
      assertThatThrownBy(() -> ContinueToken.decode(token, NodeFilter.parse(query(used))))
          .isInstanceOf(ApiException.class);
    }
  }
}
