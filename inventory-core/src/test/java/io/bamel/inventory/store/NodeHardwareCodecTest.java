package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeCondition;
import io.bamel.inventory.model.NodeHardware;
import io.bamel.inventory.model.NodeState;
import io.bamel.inventory.model.NodeStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code status.hardware}, {@code status.conditions} and {@code status.inspectRequestedAt} as
 * stored: absent when unset (a status without them is stored as before), round-tripped, and a newer
 * bamel's fields inside them kept.
 */
class NodeHardwareCodecTest {

  @Test
  void aStatusWithoutInspectionIsStoredAsBefore() {
    NodeStatus plain = NodeStatus.builder().state(NodeState.OFF).conditions(List.of()).build();
    assertThat(new String(Codec.encode(plain), StandardCharsets.UTF_8))
        .isEqualTo("{\"state\":\"off\"}");
  }

  @Test
  void roundTripsHardwareAndConditionsKeepingUnknownFields() {
    String stored =
        """
        {"state":"ready","inspectRequestedAt":"2026-11-25T12:00:00Z",
         "hardware":{"inspectedAt":"2026-11-25T11:00:00Z","vendor":"Dell Inc.","serial":"SN1",
          "cpu":{"model":"Xeon","count":2},"memoryMiB":262144,
          "gpus":[{"model":"A100","count":2}],"macs":["0c:c4:7a:00:00:01"],"future":1},
         "conditions":[{"type":"HardwareMismatch","status":"True","reason":"DiffersFromDcim",
          "message":"serial differs from DCIM: inventory X, BMC SN1",
          "lastTransitionTime":"2026-11-25T11:00:00Z","severity":"warning"}]}
        """;
    NodeStatus status = Codec.decode(stored.getBytes(StandardCharsets.UTF_8), NodeStatus.class);

    assertThat(status.inspectRequestedAt()).isEqualTo(Instant.parse("2026-11-25T12:00:00Z"));
    NodeHardware hw = status.hardware();
    assertThat(hw.cpu()).isEqualTo(new NodeHardware.Cpu("Xeon", 2));
    assertThat(hw.gpus()).containsExactly(new NodeHardware.Gpu("A100", 2));
    assertThat(hw.extensions()).containsEntry("future", 1);
    NodeCondition c = status.conditions().get(0);
    assertThat(c.isTrue()).isTrue();
    assertThat(c.extensions()).containsEntry("severity", "warning");

    byte[] again = Codec.encode(status);
    assertThat(Codec.decode(again, NodeStatus.class)).isEqualTo(status);
    assertThat(new String(again, StandardCharsets.UTF_8))
        .contains("\"future\":1")
        .contains("\"severity\":\"warning\"")
        .doesNotContain("\"true\"")
        .doesNotContain("\"error\"");
  }
}
