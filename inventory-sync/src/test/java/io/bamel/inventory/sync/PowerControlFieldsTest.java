package io.bamel.inventory.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.BmcTls;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PowerControlFieldsTest {

  private static final NodeSpec PLACED = placed();

  /** A node in a rack with a Redfish BMC: address, credentials and interface set. */
  private static NodeSpec placed() {
    return NodeSpec.builder()
        .name("node 1")
        .inventoryId("dcim-1")
        .serial("SN100001")
        .rack("r1")
        .pool("a")
        .mgmtAddress("https://[2001:db8::1:0:1]")
        .macAddress("0c:c4:7a:00:00:01")
        .powerInterface(PowerInterface.of("redfish"))
        .bmcCredentials("bmc-default")
        .build();
  }

  @Test
  void aNewNodeNeedsBmcForEveryPowerControlFieldItSets() {
    assertThat(PowerControlFields.changed(null, PLACED))
        .containsExactly("mgmtAddress", "bmcCredentials", "powerInterface");
    NodeSpec plain =
        PLACED.toBuilder().mgmtAddress(null).bmcCredentials(null).powerInterface(null).build();
    assertThat(PowerControlFields.changed(null, plain)).isEmpty();
    NodeSpec everything =
        PLACED.toBuilder()
            .bmcTls(new BmcTls(null, true, null, null))
            .kubernetesNodeName("k8s-1")
            .build()
            .withSettings("ipmi", java.util.Map.of("cipherSuite", 17, "privilege", "OPERATOR"))
            .withSettings("proxmox", java.util.Map.of("node", "pve1", "vmid", 100))
            .withSettings("wakeOnLan", java.util.Map.of("probePort", 22));
    assertThat(PowerControlFields.changed(null, everything))
        .containsExactlyElementsOf(PowerControlFields.NAMES);
  }

  @Test
  void equalValuesAreNoChangeAndOtherFieldsDoNotCount() {
    NodeSpec sameAgain = placed().toBuilder().rack("r9").labels(java.util.Map.of("k", "v")).build();
    assertThat(PowerControlFields.changed(PLACED, sameAgain)).isEmpty();
    assertThat(PowerControlFields.changed(PLACED, PLACED.toBuilder().mgmtAddress(null).build()))
        .containsExactly("mgmtAddress");
    assertThat(
            PowerControlFields.changed(
                PLACED,
                PLACED.toBuilder()
                    .powerInterface(PowerInterface.of("ipmi"))
                    .bmcTls(new BmcTls(null, true, null, null))
                    .build()))
        .containsExactly("bmcTls", "powerInterface");
  }

  @Test
  void onlyACallerThatMayChangeThemChangesThem() {
    List<String> fields = List.of("mgmtAddress");
    assertThat(PowerControlFields.allowed(false, fields)).isFalse();
    assertThat(PowerControlFields.allowed(true, fields)).isTrue();
    assertThat(PowerControlFields.allowed(false, List.of())).isTrue();
    assertThat(PowerControlFields.refusal("w", "n1", false, fields))
        .startsWith("token w lacks scope bmc, which changing mgmtAddress of node n1 needs: ");
    assertThat(PowerControlFields.refusal("w", "n1", true, fields))
        .startsWith("token w lacks scope bmc, which creating node n1 with mgmtAddress needs: ");
  }

  @Test
  void aCommandNameMustBeOneTheServerDefines() {
    NodeSpec wol =
        PLACED.toBuilder()
            .powerInterface(PowerInterface.of("wol"))
            .build()
            .withSettings(
                "wakeOnLan", java.util.Map.of("probePort", 22, "powerOffCommand", "ssh-off"));
    assertThat(PowerControlFields.unknownCommand(wol, Set.of("ssh-off"))).isEmpty();
    assertThat(PowerControlFields.unknownCommand(wol, Set.of("other")))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.field()).isEqualTo("wakeOnLan.powerOffCommand");
              assertThat(e.message()).contains("this server defines other");
            });
    assertThat(PowerControlFields.unknownCommand(wol, Set.of()))
        .singleElement()
        .satisfies(e -> assertThat(e.message()).contains("defines none"));
    assertThat(PowerControlFields.unknownCommand(PLACED, Set.of())).isEmpty();
  }
}
