package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The not-ready, remediation and power-on confirmation timeouts of a pool's config. */
class NodeTimeoutsValidationTest {

  private static List<String> fields(NodeTimeouts timeouts) {
    try {
      PoolConfig.builder().timeouts(timeouts).build().validate();
      return List.of();
    } catch (InvalidInputException e) {
      return e.errors().stream().map(FieldError::field).toList();
    }
  }

  @Test
  void eachIsPositiveRemediationComesNoEarlierThanNotReadyAndTheConfirmationBeforePowerOn() {
    NodeTimeouts none = NodeTimeouts.of(null, null, null, null);
    assertThat(fields(none)).isEmpty();
    assertThat(fields(none.withNotReady(Duration.ofMinutes(2), Duration.ofMinutes(2)))).isEmpty();
    assertThat(fields(none.withNotReady(Duration.ofMinutes(10), Duration.ofMinutes(5))))
        .containsExactly("timeouts.remediation");
    assertThat(fields(none.withNotReady(Duration.ZERO, null))).containsExactly("timeouts.notReady");
    assertThat(fields(none.withPowerOnConfirm(Duration.ofSeconds(-1))))
        .containsExactly("timeouts.powerOnConfirm");
    NodeTimeouts quickOn = NodeTimeouts.of(Duration.ofSeconds(30), null, null, null);
    assertThat(fields(quickOn.withPowerOnConfirm(Duration.ofSeconds(30))))
        .containsExactly("timeouts.powerOnConfirm");
    assertThat(fields(quickOn.withPowerOnConfirm(Duration.ofSeconds(10)))).isEmpty();
  }

  @Test
  void absentOnesFallBackToTheDefaults() {
    NodeTimeouts t = NodeTimeouts.of(Duration.ofMinutes(1), null, null, null);
    NodeTimeouts resolved = t.orElse(NodeTimeouts.DEFAULTS);
    assertThat(resolved.notReady()).isEqualTo(Duration.ofMinutes(5));
    assertThat(resolved.remediation()).isEqualTo(Duration.ofMinutes(15));
    assertThat(resolved.powerOnConfirm()).isEqualTo(Duration.ofSeconds(60));
    assertThat(resolved.powerOn()).isEqualTo(Duration.ofMinutes(1));
  }
}
