package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.ObservedPower;
import java.util.HashMap;
import java.util.Map;
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
              .mgmtAddress("10.0.0.1")
              .labels(Map.of("zone", "a", "tier", "gold"))
              .build(),
          5,
          NodeStatus.builder().state(NodeState.READY).powerState(ObservedPower.ON).build(),
          6,
          null);

  private static Map<String, String> query(String text) {
    Map<String, String> q = new HashMap<>();
    if (!text.isEmpty()) {
      for (String pair : text.split("&")) {
        int eq = pair.indexOf('=');
        q.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return q;
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "'', true",
    "pool=gpu, true",
    "pool=cpu, false",
    "rack=r1&site=dc1, true",
    "site=dc2, false",
    "serial=SN1, true",
    "mac=0c:c4:7a:00:00:01, true",
    "mac=0C-C4-7A-00-00-02, false",
    "mgmtAddress=10.0.0.1, true",
    "state=ready, true",
    "state=off, false",
    "powerState=on, true",
    "powerState=unknown, false",
    "labels=zone=a, true",
    "labels=zone=a&pool=gpu, true",
    "labels=zone=b, false",
  })
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
    assertThatThrownBy(() -> NodeFilter.parse(query(filter)))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(400));
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
