package io.bamel.power.sim.ipmi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The inbound sequence-number window of a simulated session. */
class SimSessionTest {

  private static SimSession session() {
    return new SimSession(1, 2, SimCipherSuite.SUITE_3, 4, 0);
  }

  @Test
  void acceptsEachNumberOnceWithinTheWindow() {
    SimSession s = session();
    assertThat(s.acceptSequence(0)).isFalse();
    assertThat(s.acceptSequence(5)).isTrue();
    assertThat(s.acceptSequence(5)).as("replayed").isFalse();
    assertThat(s.acceptSequence(7)).isTrue();
    assertThat(s.acceptSequence(6)).as("late, not seen").isTrue();
    assertThat(s.acceptSequence(6)).as("late, seen").isFalse();
    assertThat(s.acceptSequence(7 + 16)).as("16 ahead").isTrue();
    assertThat(s.acceptSequence(23 + 17)).as("17 ahead").isFalse();
    assertThat(s.acceptSequence(23 - 16)).as("16 behind").isFalse();
    assertThat(s.acceptSequence(23 - 15)).as("15 behind").isTrue();
  }

  @Test
  void outboundNumbersStartAtOneAndSkipZero() {
    SimSession s = session();
    assertThat(s.nextOutbound()).isEqualTo(1);
    s.outboundSequence = -1;
    assertThat(s.nextOutbound()).isEqualTo(1);
  }
}
