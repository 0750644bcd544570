package io.bamel.pool.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The frontier's logic on hand-made results: Pareto points, least energy per bound, dominance. */
class FrontierTest {

  private static PolicyResult r(String name, double kWh, double p99) {
    return new PolicyResult(name, kWh, kWh / 100, 0, p99, p99, 1, 0, 10, 0, 0, 1, null);
  }

  private static final PolicyResult ORACLE = r("oracle", 100, 0);

  @Test
  void theParetoFrontierKeepsOnlyPointsNoOtherBeatsInBothEnergyAndWait() {
    PolicyResult a = r("a", 110, 0);
    PolicyResult b = r("b", 105, 60); // less energy for more wait: on the frontier
    PolicyResult c = r("c", 107, 120); // more wait and more energy than b: dominated
    PolicyResult d = r("d", 95, 480);
    PolicyResult e = r("e", 111, 0); // a's wait, more energy: dominated
    assertThat(Frontier.pareto(List.of(c, e, d, b, a))).containsExactly(a, b, d);
  }

  @Test
  void theLeastEnergyAtABoundIsTakenAmongTheSettingsThatWaitNoLonger() {
    Frontier f =
        new Frontier(
            ORACLE, Map.of("x", List.of(r("x", 110, 0), r("x 1", 100, 60), r("x 2", 90, 300))));
    assertThat(f.leastEnergyAt("x", 0)).map(PolicyResult::policy).hasValue("x");
    assertThat(f.leastEnergyAt("x", 59)).map(PolicyResult::policy).hasValue("x");
    assertThat(f.leastEnergyAt("x", 60)).map(PolicyResult::policy).hasValue("x 1");
    assertThat(f.leastEnergyAt("x", 1000)).map(PolicyResult::policy).hasValue("x 2");
    Frontier late = new Frontier(ORACLE, Map.of("y", List.of(r("y", 90, 300))));
    assertThat(late.leastEnergyAt("y", 60)).isEmpty();
  }

  @Test
  void aFamilyBeatenAtEveryWaitItReachesIsReportedDominated() {
    Map<String, List<PolicyResult>> families = new LinkedHashMap<>();
    families.put("good", List.of(r("good", 100, 0), r("good 1", 90, 400)));
    families.put("worse", List.of(r("worse", 101, 0), r("worse 1", 95, 450)));
    families.put("late", List.of(r("late", 80, 500)));
    Frontier f = new Frontier(ORACLE, families);
    assertThat(f.dominators("worse")).containsExactly("good");
    // good wins at 0 s, where late reaches nothing: late does not dominate it
    assertThat(f.dominators("good")).isEmpty();
    // late's only point (500 s) is beaten by nobody: 90 and 95 are more than 80
    assertThat(f.dominators("late")).isEmpty();
    assertThat(f.table()).contains("worse frontier").contains("dominated at every wait by good");
  }

  @Test
  void anEqualEnergyIsNotABeat() {
    Map<String, List<PolicyResult>> families = new LinkedHashMap<>();
    families.put("p", List.of(r("p", 100, 60)));
    families.put("q", List.of(r("q", 100, 0)));
    assertThat(new Frontier(ORACLE, families).dominators("p")).isEmpty();
  }

  @Test
  void theBoundsAreZeroTheTargetAndEachFamilysDefaultsP99() {
    Map<String, List<PolicyResult>> families = new LinkedHashMap<>();
    families.put("bamel", List.of(r("bamel", 100, 0)));
    families.put("karpenter", List.of(r("karpenter", 90, 476), r("karpenter 1", 95, 0)));
    List<Frontier.Bound> bounds = new Frontier(ORACLE, families).bounds();
    assertThat(bounds).extracting(Frontier.Bound::seconds).containsExactly(0.0, 0.0, 60.0, 476.0);
    assertThat(bounds).extracting(Frontier.Bound::label).contains("karpenter defaults");
    assertThatThrownBy(() -> new Frontier(ORACLE, Map.of("empty", List.of())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theSweepPutsEachFamilysDefaultsFirstUnderItsOwnNameAndNamesEverySettingOnce() {
    Fleet fleet = new Fleet(List.of(FleetPool.of("cpu", 4, 64, 512, 0)));
    Set<String> names = new HashSet<>();
    for (Map.Entry<String, List<Supplier<Autoscaler>>> e :
        FrontierSweep.families(fleet).entrySet()) {
      assertThat(e.getValue().get(0).get().name()).isEqualTo(e.getKey());
      assertThat(e.getValue().get(0).get().overprovisioning().replicas()).isZero();
      for (Supplier<Autoscaler> s : e.getValue()) {
        assertThat(names.add(s.get().name())).as(s.get().name()).isTrue();
      }
    }
    assertThat(names).contains("cluster-autoscaler +2 x 16-core placeholders");
  }
}
