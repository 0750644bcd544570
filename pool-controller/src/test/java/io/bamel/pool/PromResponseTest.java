package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Parsing the Prometheus HTTP API's instant-query answers. */
class PromResponseTest {

  @Test
  void vectorGivesOneValuePerSeries() throws IOException {
    String body =
        """
        {"status":"success","data":{"resultType":"vector","result":[
          {"metric":{"__name__":"up","job":"a"},"value":[1435781451.781,"1"]},
          {"metric":{"job":"b"},"value":[1435781451.781,"0.25"]}]}}
        """;
    assertThat(PromResponse.values(body)).containsExactly(1.0, 0.25);
  }

  @Test
  void emptyVectorIsNoData() throws IOException {
    assertThat(
            PromResponse.values(
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}"))
        .isEmpty();
  }

  @Test
  void scalarGivesOneValue() throws IOException {
    assertThat(
            PromResponse.values(
                "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1.5,\"42\"]}}"))
        .containsExactly(42.0);
  }

  @Test
  void specialValues() throws IOException {
    String body =
        """
        {"status":"success","data":{"resultType":"vector","result":[
          {"metric":{},"value":[1,"NaN"]},{"metric":{},"value":[1,"+Inf"]},
          {"metric":{},"value":[1,"-Inf"]}]}}
        """;
    assertThat(PromResponse.values(body))
        .containsExactly(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
  }

  @Test
  void errorAnswerIsAnError() {
    String body =
        "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error at char 5\"}";
    assertThatThrownBy(() -> PromResponse.values(body))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bad_data")
        .hasMessageContaining("parse error");
  }

  @Test
  void matrixAndGarbageAreErrors() {
    assertThatThrownBy(
            () ->
                PromResponse.values(
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"))
        .hasMessageContaining("matrix");
    assertThatThrownBy(() -> PromResponse.values("<html>")).isInstanceOf(IOException.class);
    assertThatThrownBy(
            () ->
                PromResponse.values(
                    "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"value\":[1,\"x\"]}]}}"))
        .isInstanceOf(IOException.class);
  }
}
