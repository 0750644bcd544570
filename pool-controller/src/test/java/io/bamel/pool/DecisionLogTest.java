package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.pool.ScalingDecision.Choice;
import io.bamel.pool.ScalingDecision.Direction;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one grep-able line per scale decision. */
class DecisionLogTest {

  @Test
  void keyValuePairsWithTheDetailQuoted() {
    ScalingDecision d =
        new ScalingDecision(
            Direction.UP,
            "pending-pods: 3 pending \"pods\"",
            List.of(new Choice("n1", "x"), new Choice("n2", "x")),
            List.of(),
            5,
            null,
            true,
            null);
    assertThat(DecisionLog.line("gpu", d, false, 812))
        .isEqualTo(
            "pool decision pool=gpu direction=up reason=pending-pods on=n1,n2 off=- desired=5"
                + " dryRun=false revision=812 detail=\"3 pending 'pods'\"");
  }

  @Test
  void aReasonWithoutDetail() {
    ScalingDecision d =
        new ScalingDecision(
            Direction.DOWN,
            "underutilized",
            List.of(),
            List.of(new Choice("n3", "x")),
            1,
            null,
            true,
            null);
    assertThat(DecisionLog.line("web", d, true, -1))
        .endsWith("reason=underutilized on=- off=n3 desired=1 dryRun=true revision=-1 detail=\"\"");
  }
}
