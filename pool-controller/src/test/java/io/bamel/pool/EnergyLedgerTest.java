package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bamel.pool.EnergyLedger.Observation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Energy not spent by off nodes, integrated between cycles. */
class EnergyLedgerTest {

  private static final Instant T = Instant.parse("2026-06-01T12:00:00Z");

  private static Observation off(String node, Double reading, Double idle) {
    return new Observation(node, "p", true, false, reading, idle);
  }

  private static Observation ready(String node, Double reading, Double idle) {
    return new Observation(node, "p", false, true, reading, idle);
  }

  @Test
  void aNodeOffForAnIntervalSavesItsConfiguredIdleDraw() {
    EnergyLedger ledger = new EnergyLedger(Duration.ofMinutes(5));
    assertThat(ledger.observe(T, List.of(off("a", null, 100.0)))).isEmpty();
    Map<String, Double> saved = ledger.observe(T.plusSeconds(15), List.of(off("a", null, 100.0)));
    assertThat(saved.get("p")).isCloseTo(1500.0, within(1e-9));
  }

  @Test
  void theMeasuredIdleDrawWinsOverTheConfiguredOne() {
    EnergyLedger ledger = new EnergyLedger(Duration.ofMinutes(5));
    ledger.observe(T, List.of(ready("a", 180.0, 100.0)));
    ledger.observe(T.plusSeconds(15), List.of(ready("a", 150.0, 100.0)));
    ledger.observe(T.plusSeconds(30), List.of(off("a", 8.0, 100.0)));
    Map<String, Double> saved = ledger.observe(T.plusSeconds(40), List.of(off("a", 8.0, 100.0)));
    assertThat(ledger.idleDraw("a", 100.0)).isEqualTo(150.0);
    assertThat(saved.get("p")).isCloseTo(1500.0, within(1e-9));
  }

  @Test
  void switchingCountsHalfTheIntervalAndOnNodesNothing() {
    EnergyLedger ledger = new EnergyLedger(Duration.ofMinutes(5));
    ledger.observe(T, List.of(ready("a", null, 200.0), ready("b", null, 200.0)));
    Map<String, Double> first =
        ledger.observe(T.plusSeconds(10), List.of(off("a", null, 200.0), ready("b", null, 200.0)));
    assertThat(first.get("p")).isCloseTo(1000.0, within(1e-9));
    Map<String, Double> second =
        ledger.observe(
            T.plusSeconds(20), List.of(ready("a", null, 200.0), ready("b", null, 200.0)));
    assertThat(second.get("p")).isCloseTo(1000.0, within(1e-9));
    assertThat(ledger.observe(T.plusSeconds(30), List.of(ready("a", null, 200.0)))).isEmpty();
  }

  @Test
  void aNodeWithoutAnyDrawCountsNothing() {
    EnergyLedger ledger = new EnergyLedger(Duration.ofMinutes(5));
    ledger.observe(T, List.of(off("a", null, null)));
    assertThat(ledger.observe(T.plusSeconds(15), List.of(off("a", null, null)))).isEmpty();
  }

  @Test
  void gapsLongerThanTheLimitAndResetsCountNothing() {
    EnergyLedger ledger = new EnergyLedger(Duration.ofMinutes(1));
    ledger.observe(T, List.of(off("a", null, 100.0)));
    assertThat(ledger.observe(T.plusSeconds(120), List.of(off("a", null, 100.0)))).isEmpty();
    assertThat(ledger.observe(T.plusSeconds(150), List.of(off("a", null, 100.0))).get("p"))
        .isCloseTo(3000.0, within(1e-9));
    ledger.reset();
    assertThat(ledger.observe(T.plusSeconds(160), List.of(off("a", null, 100.0)))).isEmpty();
  }

  @Test
  void poolsAreSummedSeparatelyAndGoneNodesForgotten() {
    EnergyLedger ledger = new EnergyLedger(Duration.ofMinutes(5));
    ledger.observe(
        T,
        List.of(
            new Observation("a", "x", true, false, null, 10.0),
            new Observation("b", "y", true, false, null, 20.0),
            new Observation("c", "y", true, false, null, 30.0)));
    Map<String, Double> saved =
        ledger.observe(
            T.plusSeconds(1),
            List.of(
                new Observation("a", "x", true, false, null, 10.0),
                new Observation("b", "y", true, false, null, 20.0),
                new Observation("c", "y", true, false, null, 30.0)));
    assertThat(saved).containsOnlyKeys("x", "y");
    assertThat(saved.get("x")).isCloseTo(10.0, within(1e-9));
    assertThat(saved.get("y")).isCloseTo(50.0, within(1e-9));
    ledger.observe(T.plusSeconds(2), List.of());
    assertThat(
            ledger.observe(
                T.plusSeconds(3), List.of(new Observation("a", "x", true, false, null, 10.0))))
        .isEmpty();
  }
}
