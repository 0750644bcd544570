package io.bamel.inventory.api.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.JsonEnum;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerPolicy;
import io.bamel.inventory.store.Codec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PowerRequestTest {

  /** Body, spec pool, then the resulting state and policy, or the status of the refusal. */
  @ParameterizedTest(name = "{0} on pool {1} -> {2} {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        "{\"state\":\"on\"}                      | gpu | on  | manual",
        "{\"state\":\"off\"}                     | -   | off | manual",
        "{\"policy\":\"pool\"}                   | gpu | off | pool",
        "{\"policy\":\"manual\"}                 | gpu | off | manual",
        "{\"state\":\"on\",\"policy\":\"manual\"} | gpu | on  | manual",
        "{\"policy\":\"pool\"}                   | -   | 409 | -",
        "{\"state\":\"on\",\"policy\":\"pool\"}   | gpu | 400 | -",
        "{}                                      | gpu | 400 | -",
        "{\"state\":\"ON\"}                      | gpu | 400 | -",
        "{\"state\":true}                        | gpu | 400 | -",
        "{\"power\":\"on\"}                      | gpu | 400 | -",
        "[]                                      | gpu | 400 | -",
      })
  void appliesOrRefuses(String body, String pool, String state, String policy) throws Exception {
    NodeSpec spec = NodeSpec.builder().pool(pool).desiredPower(DesiredPower.OFF).build();
    if (state.matches("\\d+")) {
      assertThatThrownBy(() -> PowerRequest.parse(Codec.mapper().readTree(body)).apply("n1", spec))
          .isInstanceOfSatisfying(
              ApiException.class,
              e -> assertThat(e.problem().status()).isEqualTo(Integer.parseInt(state)));
      return;
    }
    NodeSpec next = PowerRequest.parse(Codec.mapper().readTree(body)).apply("n1", spec);
    assertThat(next.desiredPower()).isEqualTo(JsonEnum.fromJson(DesiredPower.class, state));
    assertThat(next.powerPolicy()).isEqualTo(JsonEnum.fromJson(PowerPolicy.class, policy));
  }
}
