package io.bamel.inventory.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.maintenance.DefragRule.History;
import io.bamel.inventory.maintenance.DefragRule.Member;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which member to defragment, and when: a table on a fake clock. */
class DefragRuleTest {

  private static final Instant T0 = Instant.parse("2026-11-26T02:00:00Z");
  private static final long MIB = 1L << 20;
  private static final DefragRule RULE = DefragRule.DEFAULTS;

  private static Member member(String name, long dbMib, long inUseMib) {
    return new Member(name, dbMib * MIB, inUseMib * MIB);
  }

  private record Row(String what, Member member, Map<String, Long> after, boolean due) {}

  @Test
  void freeSpaceOrGrowthSinceTheLastDefragmentationMakesAMemberDue() {
    List<Row> rows =
        List.of(
            new Row("nothing free", member("a", 500, 500), Map.of(), false),
            new Row("150 of 400 MiB free: 37 %", member("a", 400, 250), Map.of(), false),
            new Row("200 of 400 MiB free: 50 %", member("a", 400, 200), Map.of(), true),
            new Row(
                "50 of 60 MiB free: a file below 100 MiB", member("a", 60, 10), Map.of(), false),
            new Row("46 of 100 MiB free", member("a", 100, 54), Map.of(), true),
            new Row("in use 1.19 x after", member("a", 130, 119), Map.of("a", 100 * MIB), false),
            new Row("in use 1.21 x after", member("a", 130, 121), Map.of("a", 100 * MIB), true),
            new Row(
                "another member's baseline", member("b", 130, 120), Map.of("a", 100 * MIB), false),
            new Row("nothing known yet", member("a", 130, 120), Map.of(), false));
    for (Row row : rows) {
      assertThat(RULE.due(row.member(), new History(null, row.after())))
          .as(row.what())
          .isEqualTo(row.due());
    }
  }

  @Test
  void oneMemberAtATimeTheMostFreeFirstAtMostOncePerInterval() {
    List<Member> members =
        List.of(member("a", 400, 200), member("b", 500, 200), member("c", 100, 100));
    assertThat(RULE.next(members, History.NONE, T0)).map(Member::endpoint).hasValue("b");

    History h = DefragRule.defragmented(History.NONE, member("b", 200, 200), T0);
    List<Member> afterB =
        List.of(member("a", 400, 200), member("b", 200, 200), member("c", 100, 100));
    assertThat(RULE.next(afterB, h, T0.plus(Duration.ofMinutes(9)))).isEmpty();
    assertThat(RULE.next(afterB, h, T0.plus(Duration.ofMinutes(10))))
        .map(Member::endpoint)
        .hasValue("a");
  }

  @Test
  void theGrowthBaselineIsTheFirstSizeSeenUntilADefragmentation() {
    History h = History.NONE.seen(List.of(member("a", 100, 100)));
    assertThat(h.inUseAfter()).containsEntry("a", 100 * MIB);
    assertThat(h.seen(List.of(member("a", 150, 150)))).isSameAs(h);
    assertThat(RULE.next(List.of(member("a", 125, 119)), h, T0)).isEmpty();
    assertThat(RULE.next(List.of(member("a", 125, 121)), h, T0)).isPresent();

    History after = DefragRule.defragmented(h, member("a", 110, 110), T0);
    assertThat(after.inUseAfter()).containsEntry("a", 110 * MIB);
    assertThat(after.last()).isEqualTo(T0);
  }

  @Test
  void aMemberAboveTheSizeLimitIsNeverChosenButNamedForTheOperator() {
    // Defaults: files up to 512 MiB. "big" is due (50 % free) but above; "small" is due too.
    Member big = member("big", 600, 300);
    Member small = member("small", 200, 100);
    List<Member> both = List.of(big, small);
    assertThat(RULE.next(both, History.NONE, T0)).hasValue(small);
    assertThat(RULE.dueButTooLarge(both, History.NONE)).containsExactly(big);
    assertThat(RULE.next(List.of(big), History.NONE, T0)).isEmpty();

    Member bigNotDue = member("big", 600, 590);
    assertThat(RULE.dueButTooLarge(List.of(bigNotDue, small), History.NONE)).isEmpty();
    assertThat(RULE.dueButTooLarge(List.of(member("edge", 512, 100)), History.NONE))
        .as("exactly at the limit: defragmented automatically")
        .isEmpty();

    DefragRule noLimit = new DefragRule(100 * MIB, 0, 0.45, 1.2, Duration.ofMinutes(10));
    assertThat(noLimit.next(List.of(big), History.NONE, T0)).hasValue(big);
    assertThat(noLimit.dueButTooLarge(List.of(big), History.NONE)).isEmpty();
  }

  @Test
  void growthOffLeavesOnlyTheFreeSpaceRule() {
    DefragRule noGrowth = new DefragRule(100 * MIB, 0, 0.45, 0, Duration.ofMinutes(10));
    assertThat(noGrowth.due(member("a", 300, 300), new History(null, Map.of("a", 10 * MIB))))
        .isFalse();
  }

  @Test
  void badBoundsAreRefused() {
    Duration d = Duration.ofMinutes(10);
    assertThatThrownBy(() -> new DefragRule(-1, 0, 0.45, 0, d))
        .hasMessageContaining("minDbSizeBytes");
    assertThatThrownBy(() -> new DefragRule(0, -1, 0.45, 0, d))
        .hasMessageContaining("maxDbSizeBytes");
    assertThatThrownBy(() -> new DefragRule(0, 0, 1.5, 0, d)).hasMessageContaining("minFreeRatio");
    assertThatThrownBy(() -> new DefragRule(0, 0, 0.45, 0.9, d))
        .hasMessageContaining("growthRatio");
    assertThatThrownBy(() -> new DefragRule(0, 0, 0.45, 0, Duration.ofSeconds(-1)))
        .hasMessageContaining("minInterval");
  }
}
