package io.bamel.power.redfish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.power.HardwareInfo;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedfishInspectionTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode nic(String id, String mac) throws Exception {
    return JSON.readTree(
        "{\"@odata.id\":\"/redfish/v1/Systems/1/EthernetInterfaces/"
            + id
            + "/\",\"Id\":\""
            + id
            + "\",\"MACAddress\":"
            + (mac == null ? "null" : "\"" + mac + "\"")
            + "}");
  }

  @Test
  void listsEachMacOnceLowercaseWithoutZerosVlansOrTheHostInterface() throws Exception {
    List<JsonNode> nics =
        List.of(
            nic("1", "AA:BB:CC:00:00:01"),
            nic("VLAN1", "aa:bb:cc:00:00:01"),
            nic("2", "aa-bb-cc-00-00-02"),
            nic("ToManager", "0a:00:00:00:00:09"),
            nic("usb0", "0a:00:00:00:00:08"),
            nic("3", "00:00:00:00:00:00"),
            nic("4", null));
    Set<String> hostSide = Set.of("/redfish/v1/Systems/1/EthernetInterfaces/usb0");

    assertThat(RedfishInspection.macs(nics, hostSide))
        .containsExactly("aa:bb:cc:00:00:01", "aa:bb:cc:00:00:02");
  }

  @Test
  void listsTheGpusThatArePresent() throws Exception {
    List<JsonNode> processors =
        List.of(
            JSON.readTree("{\"ProcessorType\":\"CPU\",\"Model\":\"Xeon\"}"),
            JSON.readTree(
                "{\"ProcessorType\":\"GPU\",\"Manufacturer\":\"NVIDIA\",\"Model\":\"A100\"}"),
            JSON.readTree(
                "{\"ProcessorType\":\"GPU\",\"Model\":\"H100\",\"Status\":{\"State\":\"Absent\"}}"),
            JSON.readTree("{\"ProcessorType\":\"FPGA\",\"Model\":\"Stratix 10\"}"));

    assertThat(RedfishInspection.gpus(processors))
        .containsExactly(new HardwareInfo.Gpu("NVIDIA", "A100"));
  }
}
