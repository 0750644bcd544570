package io.bamel.inventory.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A power interface's settings field of a node spec is a field the API knows, though the model
 * keeps it opaque: its declared members pass, a member its interface does not declare is refused as
 * an unknown field with the path and words the API used when the settings were typed fields.
 */
class SettingsFieldsTest {

  @Test
  void declaredMembersPass() {
    NodeSpec spec =
        convert(
            """
            {"ipmi":{"cipherSuite":17,"privilege":"OPERATOR"},"proxmox":{"node":"pve1","vmid":101},
             "wakeOnLan":{"broadcast":"192.0.2.255","probePort":22,"powerOffCommand":"ssh-off"}}""");
    assertThat(spec.settings("ipmi").get("cipherSuite").asInt()).isEqualTo(17);
    assertThat(spec.settings("wakeOnLan").get("probePort").asInt()).isEqualTo(22);
  }

  @Test
  void anUndeclaredMemberIsAnUnknownField() {
    assertThatThrownBy(() -> convert("{\"ipmi\":{\"cipherSuite\":17,\"implementation\":\"x\"}}"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.problem().detail())
                  .isEqualTo("the request has fields bamel does not know");
              assertThat(e.problem().errors())
                  .containsExactly(new FieldError("ipmi.implementation", "unknown field"));
            });
    assertThatThrownBy(() -> convert("{\"wakeOnLan\":{\"extensions\":{}},\"proxmox\":{\"vm\":1}}"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.problem().errors())
                    .containsExactlyInAnyOrder(
                        new FieldError("wakeOnLan.extensions", "unknown field"),
                        new FieldError("proxmox.vm", "unknown field")));
    assertThatThrownBy(() -> convert("{\"ipmix\":{}}"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.problem().errors())
                    .containsExactly(new FieldError("ipmix", "unknown field")));
  }

  private static NodeSpec convert(String json) {
    return ApiJson.convert(ApiJson.parse(json.getBytes(StandardCharsets.UTF_8)), NodeSpec.class);
  }
}
