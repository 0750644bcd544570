package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.power.wol.WakeOnLan;
import io.bamel.power.wol.WolInterface;
import org.junit.jupiter.api.Test;

class PowerOffSupportTest {

  private static Node node(NodeSpec spec) {
    return new Node("n1", spec, 1, null, 0, null);
  }

  @Test
  void wakeOnLanNeedsAPowerOffCommand() {
    var canPowerOff = PowerOffSupport.conservative();
    assertThat(
            canPowerOff.test(
                node(NodeSpec.builder().powerInterface(PowerInterface.of("wol")).build())))
        .isFalse();
    assertThat(
            canPowerOff.test(
                node(
                    NodeSpec.builder()
                        .powerInterface(PowerInterface.of("wol"))
                        .build()
                        .withSettings(WolInterface.FIELD, new WakeOnLan(null, 22, null, null)))))
        .isFalse();
    assertThat(
            canPowerOff.test(
                node(
                    NodeSpec.builder()
                        .powerInterface(PowerInterface.of("wol"))
                        .build()
                        .withSettings(
                            WolInterface.FIELD,
                            new WakeOnLan(null, 22, "ssh node1 poweroff", null)))))
        .isTrue();
    assertThat(
            canPowerOff.test(
                node(NodeSpec.builder().powerInterface(PowerInterface.of("ipmi")).build())))
        .isTrue();
  }
}
