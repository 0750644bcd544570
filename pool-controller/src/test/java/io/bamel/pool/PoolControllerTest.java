package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The pure parts of the controller. */
class PoolControllerTest {

  private static List<Choice> choices(String prefix, int n) {
    return IntStream.range(0, n).mapToObj(i -> new Choice(prefix + i, "why")).toList();
  }

  @Test
  void aDecisionSwitchesAtMostOneTransactionsWorthOfNodes() {
    ScalingDecision big =
        new ScalingDecision(
            Direction.UP, "min-nodes: x", choices("n", 40), List.of(), 45, null, true, null);
    ScalingDecision capped = PoolController.capped(big);
    assertThat(capped.powerOn()).hasSize(PoolController.MAX_CHANGES_PER_DECISION);
    assertThat(capped.powerOnIds()).startsWith("n0", "n1");
    assertThat(capped.desiredNodes())
        .isEqualTo(45 - (40 - PoolController.MAX_CHANGES_PER_DECISION));

    ScalingDecision down =
        new ScalingDecision(
            Direction.DOWN, "underutilized", List.of(), choices("m", 30), 10, null, true, null);
    ScalingDecision cappedDown = PoolController.capped(down);
    assertThat(cappedDown.powerOff()).hasSize(PoolController.MAX_CHANGES_PER_DECISION);
    assertThat(cappedDown.desiredNodes())
        .isEqualTo(10 + (30 - PoolController.MAX_CHANGES_PER_DECISION));
  }

  @Test
  void aSmallDecisionIsKeptAsItIs() {
    ScalingDecision d =
        new ScalingDecision(
            Direction.UP, "pending-pods: 1", choices("n", 3), List.of(), 4, null, true, null);
    assertThat(PoolController.capped(d)).isSameAs(d);
  }
}
