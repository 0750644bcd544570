package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TxnPlanTest {

  private static final WriteFence FENCE = new WriteFence(Keys.leader("netbox-sync"), 7);

  private static TxnPlan guarded() {
    return new TxnPlan()
        .fence(FENCE)
        .expectModRevision(Keys.nodeSpec("n1"), 12)
        .expectAbsent(Keys.nodeEvent("n1", 1))
        .claim(Keys.indexSerial("SN-1"), "serial", "SN-1", "n1");
  }

  @Test
  void aFailureReadsBackTheFenceThenEveryGuardedKey() {
    assertThat(guarded().readBackKeys())
        .containsExactly(
            FENCE.key(), Keys.nodeSpec("n1"), Keys.nodeEvent("n1", 1), Keys.indexSerial("SN-1"));
  }

  @Test
  void withoutReadBackAFailureReadsTheFenceAlone() {
    assertThat(guarded().withoutReadBack().readBackKeys()).containsExactly(FENCE.key());
    assertThat(new TxnPlan().expectAbsent("k").withoutReadBack().readBackKeys()).isEmpty();
  }

  @Test
  void aReadBackPastEtcdsOperationLimitKeepsTheFence() {
    TxnPlan plan = new TxnPlan().fence(FENCE);
    for (int i = 0; i < TxnPlan.MAX_OPS; i++) {
      plan.expectAbsent(Keys.nodeEvent("n1", i + 1));
    }
    assertThat(plan.compares()).isGreaterThan(TxnPlan.MAX_OPS);
    // The failure still tells a lost fence from a conflict.
    assertThat(plan.readBackKeys()).containsExactly(FENCE.key());
  }

  @Test
  void aMergedChunkWithoutReadBackKeepsItsMembersGuards() {
    TxnPlan merged = new TxnPlan();
    merged.merge(guarded());
    merged.merge(new TxnPlan().expectModRevision(Keys.nodeSpec("n2"), 0));
    assertThat(merged.compares()).isEqualTo(5);
    assertThat(merged.withoutReadBack().compares()).isEqualTo(5);
    assertThat(merged.readBackKeys()).containsExactly(FENCE.key());
  }
}
