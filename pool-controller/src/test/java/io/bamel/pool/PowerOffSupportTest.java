package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.power.wol.WakeOnLan;
import io.bamel.power.wol.WolInterface;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PowerOffSupportTest {

  private static NodeSpec on(String powerInterface) {
    return NodeSpec.builder().powerInterface(PowerInterface.of(powerInterface)).build();
  }

  private static NodeSpec wol(String powerOffCommand) {
    return on("wol")
        .withSettings(WolInterface.FIELD, new WakeOnLan(null, 22, powerOffCommand, null));
  }

  static Stream<Arguments> nodes() {
    return Stream.of(
        arguments(named("Wake-on-LAN without settings", on("wol")), false),
        arguments(named("Wake-on-LAN without a power-off command", wol(null)), false),
        arguments(named("Wake-on-LAN with a power-off command", wol("ssh node1 poweroff")), true),
        arguments(named("IPMI", on("ipmi")), true));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("nodes")
  void wakeOnLanNeedsAPowerOffCommand(NodeSpec spec, boolean canPowerOff) {
    assertThat(PowerOffSupport.conservative().test(new Node("n1", spec, 1, null, 0, null)))
        .isEqualTo(canPowerOff);
  }
}
