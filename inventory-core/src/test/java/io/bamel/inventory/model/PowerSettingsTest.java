package io.bamel.inventory.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.store.Codec;
import io.bamel.power.ipmi.IpmiInterface;
import io.bamel.power.ipmi.IpmiSettings;
import io.bamel.power.proxmox.ProxmoxInterface;
import io.bamel.power.proxmox.ProxmoxVm;
import io.bamel.power.wol.WakeOnLan;
import io.bamel.power.wol.WolInterface;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The power interfaces' settings ({@code ipmi}, {@code proxmox}, {@code wakeOnLan}) are opaque to
 * the model, yet a spec is written as the typed model wrote it (the same field names, nesting and
 * place: right after {@code bmcTls}), and a wrong value gets the words the API gave when the
 * settings were typed fields of the spec.
 */
class PowerSettingsTest {

  /** The spec's fields in the order of the record before the settings left it. */
  private static final List<String> TYPED_ORDER =
      List.of(
          "name",
          "inventoryId",
          "serial",
          "assetTag",
          "site",
          "rack",
          "rackPosition",
          "pool",
          "mgmtAddress",
          "macAddress",
          "powerInterface",
          "bmcCredentials",
          "bmcTls",
          "ipmi",
          "proxmox",
          "wakeOnLan",
          "bootProfile",
          "resources",
          "powerState",
          "powerPolicy",
          "kubernetesNodeName",
          "labels",
          "maintenance",
          "idlePowerWatts");

  private static final String STORED =
      """
      {"name":"r1-u07","mgmtAddress":"192.0.2.7","powerInterface":"ipmi","bmcCredentials":"rack-7",\
      "bmcTls":{"insecureSkipVerify":true},"ipmi":{"cipherSuite":17,"privilege":"OPERATOR"},\
      "proxmox":{"node":"pve1","vmid":101},"wakeOnLan":{"broadcast":"192.0.2.255","probePort":22},\
      "bootProfile":"disk","powerState":"off","labels":{"k":"v"},"idlePowerWatts":80.0}""";

  @Test
  void aStoredSpecIsWrittenBackByteForByte() {
    NodeSpec spec = decode(STORED);
    assertThat(new String(Codec.encode(spec), StandardCharsets.UTF_8)).isEqualTo(STORED);
    assertThat(spec.validate()).isEqualTo(spec);
  }

  @Test
  void theSettingsSitWhereTheTypedFieldsWereWhateverTheBuilderOrder() {
    NodeSpec spec =
        NodeSpec.builder()
            .name("n1")
            .mgmtAddress("192.0.2.7")
            .bmcTls(new BmcTls(null, true, null, null))
            .bootProfile("disk")
            .maintenance(false)
            .build()
            .withSettings(WolInterface.FIELD, WakeOnLan.of(22, "ssh-off"))
            .withSettings(ProxmoxInterface.FIELD, ProxmoxVm.of("pve1", 101))
            .withSettings(IpmiInterface.FIELD, IpmiSettings.of(3, "USER"));
    List<String> keys = keys(spec);
    assertThat(keys).isSubsetOf(TYPED_ORDER);
    assertThat(keys).isSortedAccordingTo(java.util.Comparator.comparingInt(TYPED_ORDER::indexOf));
    assertThat(new String(Codec.encode(spec), StandardCharsets.UTF_8))
        .contains(
            "\"ipmi\":{\"cipherSuite\":3,\"privilege\":\"USER\"},"
                + "\"proxmox\":{\"node\":\"pve1\",\"vmid\":101},"
                + "\"wakeOnLan\":{\"probePort\":22,\"powerOffCommand\":\"ssh-off\"}");
  }

  @Test
  void nullMeansAbsentAndTheBuilderCanRemoveSettings() {
    NodeSpec spec =
        decode("{\"ipmi\":{\"cipherSuite\":null,\"privilege\":\"USER\"},\"proxmox\":null}");
    assertThat(new String(Codec.encode(spec), StandardCharsets.UTF_8))
        .isEqualTo("{\"ipmi\":{\"privilege\":\"USER\"},\"labels\":{}}");
    assertThat(spec.settings("proxmox")).isNull();
    assertThat(spec.withSettings(IpmiInterface.FIELD, null).settings("ipmi")).isNull();
    assertThat(decode(new String(Codec.encode(spec), StandardCharsets.UTF_8))).isEqualTo(spec);
  }

  @Test
  void aWrongValueHasTheWordsTheApiGaveForTheTypedField() {
    assertThat(errors("{\"ipmi\":\"on\"}")).containsExactly(error("ipmi", "must be an object"));
    assertThat(errors("{\"proxmox\":7}")).containsExactly(error("proxmox", "must be an object"));
    assertThat(errors("{\"wakeOnLan\":[]}"))
        .containsExactly(error("wakeOnLan", "must be an object"));
    assertThat(errors("{\"ipmi\":{\"cipherSuite\":\"three\"}}"))
        .containsExactly(error("ipmi.cipherSuite", "must be a whole number"));
    assertThat(errors("{\"ipmi\":{\"cipherSuite\":3.5}}"))
        .containsExactly(error("ipmi.cipherSuite", "must be a whole number"));
    assertThat(errors("{\"ipmi\":{\"cipherSuite\":99999999999}}"))
        .containsExactly(
            error("ipmi.cipherSuite", "must be a whole number from -2147483648 to 2147483647"));
    assertThat(errors("{\"ipmi\":{\"privilege\":7}}"))
        .containsExactly(error("ipmi.privilege", "must be a string"));
    assertThat(errors("{\"wakeOnLan\":{\"probePort\":\"22\"}}"))
        .containsExactly(error("wakeOnLan.probePort", "must be a whole number"));
    assertThat(errors("{\"proxmox\":{\"node\":\"pve1\",\"vmid\":99}}"))
        .containsExactly(error("proxmox.vmid", "must be a VM id of 100 or more"));
    assertThat(errors("{\"wakeOnLan\":{\"broadcast\":\"not an address\"}}"))
        .containsExactly(error("wakeOnLan.broadcast", ManagementAddress.problem("not an address")));
  }

  @Test
  void membersTheSettingsDoNotDeclareAreKeptByTheModel() {
    NodeSpec spec = decode("{\"ipmi\":{\"implementation\":\"ipmitool\",\"cipherSuite\":17}}");
    assertThat(spec.validate()).isEqualTo(spec);
    assertThat(IpmiSettings.of(spec.facts("n1")).implementation()).isEqualTo("ipmitool");
    assertThat(new String(Codec.encode(spec), StandardCharsets.UTF_8))
        .contains("\"ipmi\":{\"implementation\":\"ipmitool\",\"cipherSuite\":17}");
    assertThatThrownBy(() -> decode("{\"pdu\":{\"x\":1},\"ipmi\":[]}").validate())
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("ipmi: must be an object")
        .hasMessageNotContaining("pdu");
  }

  @Test
  void keepingAStoredSpecsUnknownFieldsDoesNotBringBackItsSettings() {
    NodeSpec stored = decode("{\"ipmi\":{\"cipherSuite\":3},\"futureField\":1}");
    NodeSpec replaced =
        decode("{\"ipmi\":{\"cipherSuite\":17}}").withUnknownFields(stored.extensions());
    assertThat(replaced.settings("ipmi").get("cipherSuite").asInt()).isEqualTo(17);
    assertThat(replaced.extensions()).containsEntry("futureField", 1);
    NodeSpec without = decode("{}").withUnknownFields(stored.extensions());
    assertThat(without.settings("ipmi")).isNull();
    assertThat(without.extensions()).containsOnlyKeys("futureField");
  }

  private static FieldError error(String field, String message) {
    return new FieldError(field, message);
  }

  private static NodeSpec decode(String json) {
    return Codec.decode(json.getBytes(StandardCharsets.UTF_8), NodeSpec.class);
  }

  private static List<FieldError> errors(String json) {
    Validator v = new Validator();
    decode(json).validate(v);
    return v.errors();
  }

  private static List<String> keys(NodeSpec spec) {
    JsonNode tree = Codec.mapper().valueToTree(spec);
    List<String> keys = new ArrayList<>();
    tree.fieldNames().forEachRemaining(keys::add);
    return keys;
  }
}
