package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.server.client.bmc.BmcCommand;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code get}, {@code describe} and {@code watch} print for the API's JSON. */
class RenderTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text.replace('\'', '"'));
  }

  private static final String READY =
      "{'id':'r1-u07','revision':42,'spec':{'pool':'gpu','rack':'R1',"
          + "'mgmtAddress':'https://192.0.2.7','powerInterface':'redfish','powerState':'on',"
          + "'bmcCredentials':'idrac','labels':{'zone':'a'}},"
          + "'status':{'state':'ready','stateSince':'2026-01-01T00:55:00Z','powerState':'on',"
          + "'nodeReady':true},'readings':{'powerWatts':312.5}}";
  private static final String NEW = "{'id':'r2-u01','revision':43,'spec':{'maintenance':true}}";

  @Test
  void nodesAsATableAndWide() throws Exception {
    JsonNode list = json("{'items':[" + READY + "," + NEW + "]}");
    assertThat(GetCommand.render(list, Output.TABLE, "node", "id", NOW))
        .isEqualTo(
            "NAME     POOL     STATE                 POWER         READY    AGE\n"
                + "r1-u07   gpu      ready                 on/on         True     5m\n"
                + "r2-u01   <none>   unknown,maintenance   off/unknown   <none>   <none>\n");
  }

  @Test
  void wideAddsRackMgmtInterfaceAndWatts() throws Exception {
    JsonNode list = json("{'items':[" + READY + "]}");
    String text = GetCommand.render(list, Output.WIDE, "node", "id", NOW);
    assertThat(text.lines().findFirst().orElseThrow())
        .isEqualTo(
            "NAME     POOL   STATE   POWER   READY   AGE   RACK   MGMT                INTERFACE"
                + "   WATTS");
    assertThat(text.lines().skip(1).findFirst().orElseThrow())
        .isEqualTo(
            "r1-u07   gpu    ready   on/on   True    5m    R1     https://192.0.2.7   redfish"
                + "     312.5");
  }

  @Test
  void namesJsonAndYaml() throws Exception {
    JsonNode list = json("{'items':[" + READY + "]}");
    assertThat(GetCommand.render(list, Output.NAME, "node", "id", NOW)).isEqualTo("node/r1-u07\n");
    assertThat(JSON.readTree(GetCommand.render(list, Output.JSON, "node", "id", NOW)))
        .isEqualTo(list);
    assertThat(GetCommand.render(list, Output.YAML, "node", "id", NOW))
        .startsWith("items:\n- id: r1-u07\n  revision: 42\n");
  }

  @Test
  void pools() throws Exception {
    JsonNode list =
        json(
            "{'items':[{'name':'gpu','memberCount':8,'config':{'minNodes':1,'maxNodes':8},"
                + "'status':{'readyNodes':2,'pendingNodes':1,'desiredNodes':3,"
                + "'utilization':{'cpu':0.456},'lastScaleTime':'2026-01-01T00:00:00Z'}}]}");
    assertThat(GetCommand.render(list, Output.WIDE, "pool", "name", NOW))
        .isEqualTo(
            "NAME   NODES   READY   PENDING   DESIRED   MIN   MAX   UTILIZATION   LAST-SCALE\n"
                + "gpu    8       2       1         3         1     8     cpu=46%       60m\n");
  }

  @Test
  void anEmptyListingIsNoTable() throws Exception {
    assertThat(GetCommand.render(json("{'items':[]}"), Output.TABLE, "node", "id", NOW)).isEmpty();
  }

  @Test
  void describeShowsTopFactsSectionsAndTheLastEvents() throws Exception {
    JsonNode events =
        json(
            "{'items':[{'time':'2026-01-01T00:50:00Z','reason':'power','action':'on',"
                + "'result':'ok','principal':'ops'},{'time':'2026-01-01T00:55:00Z',"
                + "'reason':'transition','from':'joining','to':'ready'}]}");
    String text = Describe.node(json(READY), events, NOW);
    assertThat(text)
        .startsWith(
            "Name:         r1-u07\n"
                + "Pool:         gpu\n"
                + "State:        ready\n"
                + "Power:        desired on, observed on\n"
                + "Maintenance:  false\n"
                + "Revision:     42\n"
                + "Spec:\n")
        .contains("  mgmtAddress:     https://192.0.2.7\n")
        .contains("  labels:\n    zone:  a\n")
        .contains("  stateSince:  2026-01-01T00:55:00Z (5m ago)\n")
        .contains("Readings:\n  powerWatts:  312.5\n")
        .contains("  AGE   REASON       CHANGE             BY       MESSAGE\n")
        .contains("  10m   power        on ok              ops      <none>\n")
        .endsWith("  5m    transition   joining -> ready   <none>   <none>\n");
  }

  @Test
  void describeAPoolListsItsMembers() throws Exception {
    String text =
        Describe.pool(
            json("{'name':'gpu','revision':7,'config':{'minNodes':1},'members':['a','b']}"), NOW);
    assertThat(text)
        .isEqualTo(
            "Name:      gpu\nNodes:     2\nRevision:  7\nConfig:\n  minNodes:  1\n"
                + "Status:  <none>\nMembers:\n  a\n  b\n");
  }

  @Test
  void watchLinesFilterByKindAndPoolAndKeepAHeader() throws Exception {
    WatchLines lines = new WatchLines("node", List.of("gpu"));
    JsonNode change = json("{'type':'modified','revision':9,'id':'r1-u07','node':" + READY + "}");
    JsonNode other =
        json("{'type':'added','revision':9,'id':'x','node':{'id':'x','spec':{'pool':'cpu'}}}");
    assertThat(lines.row("node", other, NOW)).isNull();
    assertThat(lines.row("pool", json("{'name':'gpu','pool':{}}"), NOW)).isNull();
    String first = lines.row("node", change, NOW);
    assertThat(first.lines().toList())
        .containsExactly(
            "EVENT       NAME               POOL         STATE                  POWER        READY"
                + "    AGE",
            "MODIFIED    r1-u07             gpu          ready                  on/on        True"
                + "     5m");
    assertThat(lines.row("node", change, NOW).lines()).hasSize(1);
  }

  @Test
  void powerAndMaintenanceBodies() {
    assertThat(PowerCommand.body("on")).isEqualTo("{\"state\":\"on\"}");
    assertThat(PowerCommand.body("OFF")).isEqualTo("{\"state\":\"off\"}");
    assertThat(PowerCommand.body("pool")).isEqualTo("{\"policy\":\"pool\"}");
    assertThat(PowerCommand.body("manual")).isEqualTo("{\"policy\":\"manual\"}");
    assertThat(PowerCommand.body("cycle")).isNull();
    assertThat(Maintenance.patch(true)).isEqualTo("{\"maintenance\":true}");
    assertThat(Maintenance.patch(false)).isEqualTo("{\"maintenance\":null}");
  }

  @Test
  void aNodesBmcComesFromItsSpec() throws Exception {
    BmcCommand.NodeBmc redfish = NodeBmcs.of(json(READY), Path.of("/etc/bamel/credentials"));
    assertThat(redfish.powerInterface()).isEqualTo("redfish");
    assertThat(redfish.endpoint().address()).isEqualTo("https://192.0.2.7");
    assertThat(redfish.endpoint().credentialsName()).isEqualTo("idrac");
    assertThat(redfish.credentialsRoot()).isEqualTo(Path.of("/etc/bamel/credentials"));

    BmcCommand.NodeBmc wol =
        NodeBmcs.of(
            json(
                "{'id':'w1','spec':{'powerInterface':'wol','macAddress':'52:54:00:00:00:07',"
                    + "'mgmtAddress':'192.0.2.7','wakeOnLan':{'broadcast':'192.0.2.255',"
                    + "'probePort':22,'powerOffCommand':'ssh-off'},"
                    + "'bmcTls':{'pinnedSha256':'AB:CD'}}}"),
            null);
    assertThat(wol.endpoint().address()).isEqualTo("52:54:00:00:00:07");
    assertThat(wol.endpoint().options())
        .containsEntry("broadcast", "192.0.2.255")
        .containsEntry("probe", "192.0.2.7:22")
        .containsEntry("powerOffCommand", "ssh-off")
        .containsEntry("node", "w1");
    assertThat(wol.endpoint().tls().pinnedSha256()).isEqualTo("abcd");
  }

  @Test
  void errorsNameTheServerTheStatusAndTheProblemsDetail() {
    ClientConfig config =
        new ClientConfig(
            java.net.URI.create("http://127.0.0.1:8080"), "t0k", "BAMEL_TOKEN", null, null);
    byte[] problem =
        "{\"title\":\"Forbidden\",\"detail\":\"token ops lacks scope\",\"errors\":[{\"field\":\"mgmtAddress\",\"message\":\"needs bmc\"}]}"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(ApiErrors.message(config, "PATCH", "/api/v1/nodes/a", 403, problem))
        .isEqualTo(
            "forbidden: the token's scope does not allow PATCH /api/v1/nodes/a (403 from"
                + " http://127.0.0.1:8080): token ops lacks scope; mgmtAddress: needs bmc");
    assertThat(ApiErrors.message(config, "GET", "/api/v1/nodes", 401, new byte[0]))
        .isEqualTo("the server refused the token from BAMEL_TOKEN (401 from http://127.0.0.1:8080)")
        .doesNotContain("t0k");
  }
}
