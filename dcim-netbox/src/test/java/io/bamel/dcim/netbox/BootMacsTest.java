package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.store.Codec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BootMacsTest {

  private static List<JsonNode> interfaces(String json) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    Codec.mapper().readTree(json).forEach(out::add);
    return out;
  }

  @Test
  void netBox37KeepsTheMacOnTheInterface() throws Exception {
    assertThat(
            BootMacs.choose(
                interfaces(
                    """
                    [{"id": 1, "name": "bmc", "mgmt_only": true, "mac_address": "52:54:00:00:00:01"},
                     {"id": 2, "name": "eno1", "mgmt_only": false, "mac_address": null},
                     {"id": 3, "name": "eno2", "mgmt_only": false, "mac_address": "52:54:00:00:00:0A"}]
                    """)))
        .isEqualTo("52:54:00:00:00:0a");
  }

  @Test
  void netBox42PrefersThePrimaryMacObjectThenTheFirstObject() throws Exception {
    assertThat(
            BootMacs.choose(
                interfaces(
                    """
                    [{"id": 2, "name": "eno1", "mgmt_only": false, "mac_address": "52:54:00:00:00:0b",
                      "primary_mac_address": {"id": 9, "mac_address": "52:54:00:00:00:0B"},
                      "mac_addresses": [{"id": 8, "mac_address": "52:54:00:00:00:0C"},
                                        {"id": 9, "mac_address": "52:54:00:00:00:0B"}]}]
                    """)))
        .isEqualTo("52:54:00:00:00:0b");
    assertThat(
            BootMacs.choose(
                interfaces(
                    """
                    [{"id": 2, "name": "eno1", "mac_address": null, "primary_mac_address": null,
                      "mac_addresses": [{"id": 12, "mac_address": "52:54:00:00:00:0D"},
                                        {"id": 8, "mac_address": "52:54:00:00:00:0C"}]}]
                    """)))
        .isEqualTo("52:54:00:00:00:0c");
  }

  @Test
  void noMacAndInvalidTextAreNone() throws Exception {
    assertThat(BootMacs.choose(List.of())).isNull();
    assertThat(
            BootMacs.choose(
                interfaces(
                    """
                    [{"id": 2, "name": "eno1", "mac_address": "not-a-mac", "primary_mac_address": null,
                      "mac_addresses": []}]
                    """)))
        .isNull();
  }
}
