package io.bamel.pool;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.bamel.inventory.model.ScaleDirection;
import io.bamel.inventory.model.ScalingTrigger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.threeten.extra.MutableClock;

/** Triggers evaluated against WireMock answering as the Prometheus HTTP API. */
class PrometheusTriggersTest {

  private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
  private static final String QUEUE = "sum(queue_depth{queue=\"jobs\"})";
  private static final String IDLE = "avg(rate(requests_total[5m]))";

  private WireMockServer prometheus;
  private MutableClock clock;
  private PrometheusTriggers triggers;

  @BeforeEach
  void start() {
    prometheus = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    prometheus.start();
    clock = MutableClock.of(T0, ZoneOffset.UTC);
    triggers =
        new PrometheusTriggers(
            new PrometheusHttp(URI.create(prometheus.baseUrl()), Duration.ofSeconds(15)),
            Duration.ofSeconds(60), // generous: these tests are about votes, not time
            PrometheusTriggers.DEFAULT_CONCURRENCY);
  }

  @AfterEach
  void stop() {
    triggers.close();
    prometheus.stop();
  }

  private Votes evaluate(String pool, List<ScalingTrigger> t) {
    return triggers.evaluate(pool, t, clock.instant());
  }

  private void answer(String query, String value) {
    prometheus.stubFor(
        get(urlPathEqualTo("/api/v1/query"))
            .withQueryParam("query", equalTo(query))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                            + (value == null
                                ? ""
                                : "{\"metric\":{\"queue\":\"jobs\"},\"value\":["
                                    + clock.instant().getEpochSecond()
                                    + ",\""
                                    + value
                                    + "\"]}")
                            + "]}}")));
  }

  private static ScalingTrigger up(String name, String query, double threshold, Duration d) {
    return new ScalingTrigger(name, query, threshold, d, ScaleDirection.UP, null);
  }

  private static ScalingTrigger down(String name, String query, double threshold, Duration d) {
    return new ScalingTrigger(name, query, threshold, d, ScaleDirection.DOWN, null);
  }

  @Test
  void anUpTriggerVotesOnceItHeldForItsDuration() {
    List<ScalingTrigger> t = List.of(up("queue", QUEUE, 100, Duration.ofMinutes(2)));
    answer(QUEUE, "150");
    assertThat(evaluate("p", t).up()).isEmpty();
    clock.add(Duration.ofMinutes(1));
    assertThat(evaluate("p", t).up()).isEmpty();
    clock.add(Duration.ofMinutes(1));
    Votes votes = evaluate("p", t);
    assertThat(votes.up()).containsExactly("queue");
    assertThat(votes.available()).isTrue();
    prometheus.verify(
        getRequestedFor(urlPathEqualTo("/api/v1/query")).withQueryParam("query", equalTo(QUEUE)));
  }

  @Test
  void oneEvaluationBelowTheThresholdRestartsTheWindow() {
    List<ScalingTrigger> t = List.of(up("queue", QUEUE, 100, Duration.ofMinutes(2)));
    answer(QUEUE, "150");
    evaluate("p", t);
    clock.add(Duration.ofMinutes(1));
    answer(QUEUE, "50");
    evaluate("p", t);
    clock.add(Duration.ofMinutes(1));
    answer(QUEUE, "150");
    assertThat(evaluate("p", t).up()).isEmpty();
    clock.add(Duration.ofMinutes(2));
    assertThat(evaluate("p", t).up()).containsExactly("queue");
  }

  @Test
  void aZeroDurationVotesAtOnceAndNoDataNeverHolds() {
    List<ScalingTrigger> t = List.of(up("queue", QUEUE, 100, Duration.ZERO));
    answer(QUEUE, null);
    assertThat(evaluate("p", t).up()).isEmpty();
    answer(QUEUE, "101");
    assertThat(evaluate("p", t).up()).containsExactly("queue");
  }

  @Test
  void downTriggersVoteBelowTheirThresholdAndAreListed() {
    List<ScalingTrigger> t =
        List.of(down("idle", IDLE, 5, Duration.ZERO), down(null, QUEUE, 1, Duration.ZERO));
    answer(IDLE, "2");
    answer(QUEUE, "3");
    Votes votes = evaluate("p", t);
    assertThat(votes.down()).containsExactly("idle");
    assertThat(votes.downTriggers()).containsExactlyInAnyOrder("idle", "trigger-1");
    assertThat(votes.up()).isEmpty();
  }

  @Test
  void unreachablePrometheusGivesNoVoteAndSaysWhy() {
    List<ScalingTrigger> t = List.of(up("queue", QUEUE, 100, Duration.ZERO));
    answer(QUEUE, "150");
    assertThat(evaluate("p", t).up()).containsExactly("queue");
    prometheus.stop();
    Votes votes = evaluate("p", t);
    assertThat(votes.up()).isEmpty();
    assertThat(votes.available()).isFalse();
    assertThat(votes.reason()).contains("queue");
  }

  @Test
  void anErrorAnswerGivesNoVote() {
    prometheus.stubFor(
        get(urlPathEqualTo("/api/v1/query"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}")));
    Votes votes = evaluate("p", List.of(up("bad", "sum(", 1, Duration.ZERO)));
    assertThat(votes.up()).isEmpty();
    assertThat(votes.available()).isFalse();
    assertThat(votes.reason()).contains("bad_data");
  }

  @Test
  void withoutPrometheusTriggersAreUnavailable() {
    try (PrometheusTriggers none = new PrometheusTriggers(null)) {
      Votes votes = none.evaluate("p", List.of(up("queue", QUEUE, 1, Duration.ZERO)), T0);
      assertThat(votes.up()).isEmpty();
      assertThat(votes.available()).isFalse();
      assertThat(none.evaluate("p", List.of(), T0)).isEqualTo(Votes.NONE);
    }
  }

  @Test
  void windowsAreKeptPerPool() {
    List<ScalingTrigger> t = List.of(up("queue", QUEUE, 100, Duration.ofMinutes(1)));
    answer(QUEUE, "150");
    evaluate("a", t);
    clock.add(Duration.ofMinutes(1));
    assertThat(evaluate("b", t).up()).isEmpty();
    assertThat(evaluate("a", t).up()).containsExactly("queue");
    triggers.reset();
    assertThat(evaluate("a", t).up()).isEmpty();
  }
}
