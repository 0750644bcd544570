package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.ScaleDirection;
import io.bamel.inventory.model.ScalingTrigger;
import io.bamel.inventory.store.Codec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link TriggerEvaluators}: triggers go to the evaluator of their kind (none written: Prometheus),
 * votes of two kinds join per pool, a kind without an evaluator makes the votes unavailable; and
 * the wire form of a trigger is the one it always was.
 */
class TriggerEvaluatorsTest {

  private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

  /** An evaluator of kind {@code scripted}: a trigger votes when its name is in {@code voting}. */
  static final class Scripted implements TriggerEvaluator {
    final Set<String> voting;
    final List<Map<String, List<ScalingTrigger>>> calls = new ArrayList<>();
    int resets;

    Scripted(Set<String> voting) {
      this.voting = voting;
    }

    @Override
    public String kind() {
      return "scripted";
    }

    @Override
    public Map<String, Votes> evaluate(Map<String, List<ScalingTrigger>> byPool, Instant now) {
      calls.add(byPool);
      Map<String, Votes> out = new HashMap<>();
      byPool.forEach(
          (pool, triggers) ->
              out.put(
                  pool,
                  Votes.of(
                      triggers.stream()
                          .map(
                              t ->
                                  new TriggerVote(
                                      t.name(), t.scaleDirection(), voting.contains(t.name())))
                          .toList(),
                      null)));
      return out;
    }

    @Override
    public void reset() {
      resets++;
    }
  }

  private static ScalingTrigger prometheus(String name, String query, ScaleDirection d) {
    return new ScalingTrigger(name, query, 10.0, Duration.ZERO, d, null);
  }

  private static ScalingTrigger scripted(String name, ScaleDirection d) {
    return ofKind("scripted", name, d);
  }

  /** A trigger of evaluator kind {@code kind}, without a query or a threshold. */
  private static ScalingTrigger ofKind(String kind, String name, ScaleDirection d) {
    return new ScalingTrigger(name, null, null, Duration.ZERO, d, kind, null);
  }

  /** Pool a's votes, its triggers evaluated at T0. */
  private static Votes poolA(TriggerEvaluators registry, ScalingTrigger... triggers) {
    return registry.evaluate(Map.of("a", List.of(triggers)), T0).get("a");
  }

  /** A pool config with {@code trigger}, validated. */
  private static PoolConfig validated(ScalingTrigger trigger) {
    return PoolConfig.builder().triggers(List.of(trigger)).build().validate();
  }

  @Test
  void eachKindGoesToItsEvaluatorAndTheVotesJoin() {
    Scripted sim = new Scripted(Set.of("sim-up"));
    try (TriggerEvaluators registry =
        new TriggerEvaluators(
            List.of(
                new PrometheusTriggers(query -> List.of(50.0), Duration.ofSeconds(5), 1), sim))) {
      Map<String, Votes> votes =
          registry.evaluate(
              Map.of(
                  "a",
                  List.of(
                      prometheus("queue", "q", ScaleDirection.UP),
                      scripted("sim-up", ScaleDirection.UP),
                      scripted("sim-idle", ScaleDirection.DOWN)),
                  "b",
                  List.of()),
              T0);
      assertThat(votes.get("a").up()).containsExactlyInAnyOrder("queue", "sim-up");
      assertThat(votes.get("a").down()).isEmpty();
      assertThat(votes.get("a").downTriggers()).containsExactly("sim-idle");
      assertThat(votes.get("a").available()).isTrue();
      assertThat(votes.get("b")).isEqualTo(Votes.NONE);
      assertThat(sim.calls).hasSize(1);
      assertThat(sim.calls.get(0).get("a"))
          .extracting(ScalingTrigger::name)
          .containsExactly("sim-up", "sim-idle");
      registry.reset();
      assertThat(sim.resets).isEqualTo(1);
    }
  }

  @Test
  void anUnnamedTriggerIsNamedByItsIndexInThePoolsList() {
    Scripted sim = new Scripted(Set.of("trigger-1"));
    try (TriggerEvaluators registry = new TriggerEvaluators(List.of(sim))) {
      Votes votes =
          poolA(registry, scripted("first", ScaleDirection.UP), scripted(null, ScaleDirection.UP));
      assertThat(votes.up()).containsExactly("trigger-1");
    }
  }

  @Test
  void aKindWithoutAnEvaluatorDoesNotVoteAndSaysSo() {
    try (TriggerEvaluators registry =
        new TriggerEvaluators(List.of(new PrometheusTriggers(query -> List.of(1.0))))) {
      Votes votes =
          poolA(
              registry,
              scripted("sim-idle", ScaleDirection.DOWN),
              prometheus("idle", "q", ScaleDirection.DOWN));
      assertThat(votes.available()).isFalse();
      assertThat(votes.reason()).contains("no evaluator for trigger kind scripted");
      assertThat(votes.downTriggers()).containsExactlyInAnyOrder("sim-idle", "idle");
      assertThat(votes.down()).containsExactly("idle");
    }
  }

  @Test
  void twoEvaluatorsOfOneKindAreRefused() {
    assertThatThrownBy(
            () -> new TriggerEvaluators(List.of(new Scripted(Set.of()), new Scripted(Set.of()))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scripted");
  }

  @Test
  void theWireFormIsUnchangedAndTheKindOptional() {
    String json =
        """
        {"name":"queue","metricQuery":"sum(q)","threshold":10.0,"duration":"PT2M",\
        "scaleDirection":"up"}""";
    ScalingTrigger t = Codec.decode(json.getBytes(StandardCharsets.UTF_8), ScalingTrigger.class);
    assertThat(t.scaleDirection()).isEqualTo(ScaleDirection.UP);
    assertThat(t.evaluatorKind()).isEqualTo(ScalingTrigger.PROMETHEUS);
    String encoded = new String(Codec.encode(t), StandardCharsets.UTF_8);
    assertThat(encoded).contains("\"scaleDirection\":\"up\"").doesNotContain("kind");
    assertThatThrownBy(
            () ->
                Codec.decode(
                    json.replace("\"up\"", "\"sideways\"").getBytes(StandardCharsets.UTF_8),
                    ScalingTrigger.class))
        .rootCause()
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("scaleDirection: unknown value 'sideways'");
  }

  @Test
  void onlyThePrometheusKindNeedsAQuery() {
    PoolConfig withScripted = validated(scripted("sim", ScaleDirection.UP));
    assertThat(withScripted.triggers()).hasSize(1);
    assertThatThrownBy(() -> validated(prometheus("q", null, ScaleDirection.UP)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("metricQuery");
    assertThatThrownBy(() -> validated(ofKind("Bad/Kind", "s", ScaleDirection.UP)))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("kind");
  }
}
