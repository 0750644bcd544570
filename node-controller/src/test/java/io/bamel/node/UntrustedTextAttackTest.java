package io.bamel.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import io.bamel.power.PowerException;
import io.bamel.power.TransientPowerException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Security issue 30, finding 6, stored side: a BMC's error text carrying a line break and a fake
 * log line is stored in {@code status.lastError} escaped, as one line, through the state machine's
 * real path (the failed read's error as {@link NodeBmc#failure} builds it), and stays so in the
 * JSON that goes to etcd.
 */
class UntrustedTextAttackTest {

  static final String FORGED = "boom\n2026-11-28 INFO forged line\u2028\u0085";

  @Test
  void attack_bmcErrorForgesALineInLastError() throws Exception {
    String error =
        NodeBmc.failure(new TransientPowerException(PowerException.Reason.BMC_ERROR, FORGED));
    NodeSpec spec =
        NodeSpec.builder()
            .name("r1-u07")
            .mgmtAddress("https://192.0.2.17")
            .powerInterface(PowerInterface.of("redfish"))
            .bmcCredentials("bmc")
            .desiredPower(DesiredPower.ON)
            .build();
    Instant now = Instant.parse("2026-11-28T12:00:00Z");
    Decision d =
        NodeStateMachine.decide(
            new Observation(
                spec,
                1,
                NodeStatus.initial(now),
                PowerReading.failed(error),
                KubeView.DISABLED,
                NodeStateMachineTest.TIMEOUTS,
                Map.of(),
                now));
    String stored = d.next().lastError();
    assertThat(stored)
        .endsWith("BMC_ERROR: boom\\n2026-11-28 INFO forged line\\u2028\\u0085")
        .doesNotContain("\n")
        .doesNotContain("\u2028")
        .doesNotContain("\u0085");
    String json = new String(Codec.encode(d.next()), StandardCharsets.UTF_8);
    NodeStatus back = Codec.decode(json.getBytes(StandardCharsets.UTF_8), NodeStatus.class);
    assertThat(back.lastError()).isEqualTo(stored);
    // text already stored raw (by an older bamel) is escaped when read
    NodeStatus raw = NodeStatus.initial(now).toBuilder().lastError(FORGED).build();
    assertThat(raw.lastError()).doesNotContain("\n").startsWith("boom\\n");
  }
}
