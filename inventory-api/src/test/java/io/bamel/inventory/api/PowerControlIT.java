package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerInterface;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.testing.EtcdExtension;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who may decide where power goes: a write token (a DCIM sync job's) cannot create a node with
 * mgmtAddress, bmcCredentials, bmcTls, powerInterface, wakeOnLan or proxmox, nor change them,
 * through PUT, PATCH, native sync or NetBox sync; a bmc token can, and every such change is an
 * event naming the principal and the fields. Sending the same values again is no change.
 * Wake-on-LAN power-off commands are names the server defines.
 */
class PowerControlIT {

  /** Merge patches that each change a power-control field, which a write token may not. */
  private static final List<String> POWER_CONTROL_PATCHES =
      List.of(
          "{\"mgmtAddress\":\"https://192.0.2.66\"}",
          "{\"mgmtAddress\":null,\"powerInterface\":null}",
          "{\"bmcCredentials\":\"other\"}",
          "{\"bmcTls\":{\"insecureSkipVerify\":true}}",
          "{\"powerInterface\":\"ipmi\"}",
          "{\"proxmox\":{\"node\":\"pve1\",\"vmid\":101}}",
          "{\"wakeOnLan\":{\"probePort\":22}}");

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final String NODE = "/api/v1/nodes/n001";

  private static JsonNode lastEvent(ApiFixture f, String id) {
    JsonNode items = f.get("/api/v1/nodes/" + id + "/events").json().get("items");
    return items.get(items.size() - 1);
  }

  @Test
  void aWriteTokenCannotCreateANodeWithPowerControlFieldsButABmcTokenCan() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      long before = f.revision();
      ApiFixture.Response refused =
          f.jsonAs(ApiFixture.WRITE, "PUT", NODE, Json.of(Json.spec(1, "a")));
      assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
      assertThat(refused.contentType()).startsWith("application/problem+json");
      assertThat(refused.json().get("detail").asText())
          .contains("dcim")
          .contains("scope bmc")
          .contains("mgmtAddress, bmcCredentials, powerInterface");
      assertThat(refused.json().get("requiredScope").asText()).isEqualTo("bmc");
      assertThat(refused.errorFields())
          .containsExactly("mgmtAddress", "bmcCredentials", "powerInterface");
      assertThat(f.revision()).isEqualTo(before);
      assertThat(f.get(NODE).status()).isEqualTo(404);

      // Inventory-only data needs no more than write.
      NodeSpec plain =
          Json.spec(2, "a").toBuilder()
              .mgmtAddress(null)
              .bmcCredentials(null)
              .powerInterface(null)
              .build();
      assertThat(f.jsonAs(ApiFixture.WRITE, "PUT", "/api/v1/nodes/n002", Json.of(plain)).status())
          .isEqualTo(201);

      ApiFixture.Response created =
          f.jsonAs(ApiFixture.BMC, "PUT", NODE, Json.of(Json.spec(1, "a")));
      assertThat(created.status()).as(created.toString()).isEqualTo(201);
      JsonNode event = lastEvent(f, "n001");
      assertThat(event.get("principal").asText()).isEqualTo("netops");
      assertThat(event.get("message").asText())
          .contains("power control: mgmtAddress, bmcCredentials, powerInterface");
    }
  }

  @Test
  void aWriteTokenMayResendTheSameValuesButNotChangeThem() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      String spec = Json.of(Json.spec(1, "a"));
      assertThat(f.jsonAs(ApiFixture.BMC, "PUT", NODE, spec).status()).isEqualTo(201);

      // The same values again, and changes of other fields: write is enough.
      assertThat(f.jsonAs(ApiFixture.WRITE, "PUT", NODE, spec).status()).isEqualTo(200);
      ApiFixture.Response rack = f.jsonAs(ApiFixture.WRITE, "PATCH", NODE, "{\"rack\":\"r9\"}");
      assertThat(rack.status()).as(rack.toString()).isEqualTo(200);
      assertThat(lastEvent(f, "n001").get("message").asText())
          .isEqualTo("changed rack")
          .doesNotContain("power control");

      long before = f.revision();
      for (String patch : POWER_CONTROL_PATCHES) {
        ApiFixture.Response r = f.jsonAs(ApiFixture.WRITE, "PATCH", NODE, patch);
        assertThat(r.status()).as(patch + " -> " + r).isEqualTo(403);
        assertThat(r.errorFields()).as(patch).isNotEmpty();
      }
      // A PUT that leaves the address out removes it: a change too.
      ApiFixture.Response removal =
          f.jsonAs(
              ApiFixture.WRITE,
              "PUT",
              NODE,
              Json.of(
                  Json.spec(1, "a").toBuilder().mgmtAddress(null).powerInterface(null).build()));
      assertThat(removal.status()).isEqualTo(403);
      assertThat(removal.errorFields()).containsExactly("mgmtAddress", "powerInterface");
      assertThat(f.revision()).isEqualTo(before);
      assertThat(f.get(NODE).json().at("/spec/mgmtAddress").asText())
          .isEqualTo("https://[2001:db8::1:0:1]");

      ApiFixture.Response moved =
          f.jsonAs(ApiFixture.BMC, "PATCH", NODE, "{\"mgmtAddress\":\"https://192.0.2.7\"}");
      assertThat(moved.status()).as(moved.toString()).isEqualTo(200);
      JsonNode event = lastEvent(f, "n001");
      assertThat(event.get("principal").asText()).isEqualTo("netops");
      assertThat(event.get("message").asText())
          .isEqualTo("changed mgmtAddress (power control: mgmtAddress)");
      // The admin scope includes bmc.
      assertThat(f.json("PATCH", NODE, "{\"bmcCredentials\":\"rack2\"}").status()).isEqualTo(200);
      assertThat(lastEvent(f, "n001").get("principal").asText()).isEqualTo("ops");
    }
  }

  private static String records(NodeSpec... specs) {
    ObjectNode body = Codec.mapper().createObjectNode();
    ArrayNode items = body.putArray("items");
    for (NodeSpec spec : specs) {
      ObjectNode item = items.addObject();
      item.put("id", spec.name());
      item.set("spec", Codec.mapper().valueToTree(spec));
    }
    return body.toString();
  }

  private static NodeSpec named(int i, String id) {
    return Json.spec(i, "a").toBuilder().name(id).build();
  }

  @Test
  void aWriteTokenSyncRejectsOnlyTheItemsThatChangePowerControl() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      ApiFixture.Response seeded =
          f.jsonAs(ApiFixture.BMC, "POST", "/api/v1/sync", records(named(1, "n1"), named(2, "n2")));
      assertThat(seeded.json().get("created")).hasSize(2);
      long before = f.revision();

      NodeSpec sameBmcNewRack = named(1, "n1").toBuilder().rack("r7").build();
      NodeSpec movedBmc = named(2, "n2").toBuilder().mgmtAddress("https://192.0.2.99").build();
      NodeSpec newWithBmc = named(3, "n3");
      NodeSpec newPlain =
          named(4, "n4").toBuilder()
              .mgmtAddress(null)
              .bmcCredentials(null)
              .powerInterface(null)
              .build();
      ApiFixture.Response r =
          f.jsonAs(
              ApiFixture.WRITE,
              "POST",
              "/api/v1/sync?prune=true&pool=a",
              records(sameBmcNewRack, movedBmc, newWithBmc, newPlain));
      assertThat(r.status()).as(r.toString()).isEqualTo(200);
      JsonNode report = r.json();
      assertThat(report.get("updated").findValuesAsText("id")).containsExactly("n1");
      assertThat(report.get("created").findValuesAsText("id")).containsExactly("n4");
      // The node whose address the item would move is neither changed nor pruned.
      assertThat(report.get("deleted")).isEmpty();
      JsonNode rejected = report.get("rejected");
      assertThat(rejected.findValuesAsText("id")).containsExactly("n2", "n3");
      assertThat(rejected.get(0).get("reason").asText()).contains("scope bmc");
      assertThat(rejected.get(0).get("errors").findValuesAsText("field"))
          .containsExactly("mgmtAddress");
      assertThat(rejected.get(1).get("errors").findValuesAsText("field"))
          .containsExactly("mgmtAddress", "bmcCredentials", "powerInterface");
      assertThat(f.get("/api/v1/nodes/n2").json().at("/spec/mgmtAddress").asText())
          .isEqualTo("https://[2001:db8::1:0:2]");
      assertThat(f.get("/api/v1/nodes/n3").status()).isEqualTo(404);
      assertThat(f.revision()).isGreaterThan(before);

      // With bmc, the same change goes through and its event says so.
      ApiFixture.Response allowed =
          f.jsonAs(ApiFixture.BMC, "POST", "/api/v1/sync", records(movedBmc));
      assertThat(allowed.json().get("updated").findValuesAsText("id")).containsExactly("n2");
      JsonNode event = lastEvent(f, "n2");
      assertThat(event.get("principal").asText()).isEqualTo("netops");
      assertThat(event.get("message").asText()).contains("power control: mgmtAddress");
    }
  }

  private static String netbox(int id, String name, String oobIp) {
    ObjectNode body = Codec.mapper().createObjectNode();
    ObjectNode device = body.putArray("results").addObject();
    device.put("id", id);
    device.put("name", name);
    device.put("serial", "NB" + id);
    device.putObject("oob_ip").put("address", oobIp + "/24");
    return body.toString();
  }

  @Test
  void aNetBoxResyncWithTheSameOobIpNeedsOnlyWriteButMovingItNeedsBmc() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      String sync = "/api/v1/sync?format=netbox";
      ApiFixture.Response refused =
          f.jsonAs(ApiFixture.WRITE, "POST", sync, netbox(7, "r1-u07", "192.0.2.7"));
      assertThat(refused.json().get("rejected").findValuesAsText("id")).containsExactly("r1-u07");
      ApiFixture.Response created =
          f.jsonAs(ApiFixture.BMC, "POST", sync, netbox(7, "r1-u07", "192.0.2.7"));
      assertThat(created.json().get("created").findValuesAsText("id")).containsExactly("r1-u07");

      long before = f.revision();
      ApiFixture.Response again =
          f.jsonAs(ApiFixture.WRITE, "POST", sync, netbox(7, "r1-u07", "192.0.2.7"));
      assertThat(again.json().get("unchanged").findValuesAsText("id")).containsExactly("r1-u07");
      assertThat(again.json().get("rejected")).isEmpty();
      assertThat(f.revision()).isEqualTo(before);

      ApiFixture.Response moved =
          f.jsonAs(ApiFixture.WRITE, "POST", sync, netbox(7, "r1-u07", "192.0.2.8"));
      assertThat(moved.json().get("rejected").get(0).get("errors").findValuesAsText("field"))
          .containsExactly("mgmtAddress");
      assertThat(f.revision()).isEqualTo(before);
      assertThat(f.get("/api/v1/nodes/r1-u07").json().at("/spec/mgmtAddress").asText())
          .isEqualTo("192.0.2.7");
    }
  }

  private static NodeSpec wol(int i, String command) {
    return Json.spec(i, "a").toBuilder()
        .powerInterface(PowerInterface.of("wol"))
        .bmcCredentials(null)
        .build()
        .withSettings("wakeOnLan", java.util.Map.of("probePort", 22, "powerOffCommand", command));
  }

  @Test
  void powerOffCommandsAreNamesTheServerDefines() throws Exception {
    ApiOptions options = ApiOptions.DEFAULTS.powerOffCommands(Set.of("ssh-off", "ipmi-soft"));
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), options)) {
      assertThat(f.json("PUT", NODE, Json.of(wol(1, "ssh-off"))).status()).isEqualTo(201);
      long before = f.revision();
      for (String command : List.of("reboot-all", "ssh root@192.0.2.1 poweroff", "$(id)")) {
        ApiFixture.Response r = f.json("PUT", "/api/v1/nodes/n002", Json.of(wol(2, command)));
        assertThat(r.status()).as(command + " -> " + r).isEqualTo(400);
        assertThat(r.errorFields()).containsExactly("wakeOnLan.powerOffCommand");
        assertThat(r.body()).contains("server's configuration").doesNotContain("root@");
      }
      ApiFixture.Response known =
          f.json("PUT", "/api/v1/nodes/n002", Json.of(wol(2, "text command")));
      assertThat(known.json().at("/errors/0/message").asText()).contains("never command text");
      ApiFixture.Response patch =
          f.json("PATCH", NODE, "{\"wakeOnLan\":{\"powerOffCommand\":\"sh -c reboot\"}}");
      assertThat(patch.status()).isEqualTo(400);
      ApiFixture.Response unknownName =
          f.json("PATCH", NODE, "{\"wakeOnLan\":{\"powerOffCommand\":\"other\"}}");
      assertThat(unknownName.status()).isEqualTo(400);
      assertThat(unknownName.json().at("/errors/0/message").asText())
          .contains("defines ipmi-soft, ssh-off");
      ApiFixture.Response sync =
          f.json("POST", "/api/v1/sync", records(wol(3, "other").toBuilder().name("n3").build()));
      assertThat(sync.json().get("rejected").get(0).get("errors").findValuesAsText("field"))
          .containsExactly("wakeOnLan.powerOffCommand");
      assertThat(f.revision()).isEqualTo(before);
      assertThat(
              f.json("PATCH", NODE, "{\"wakeOnLan\":{\"powerOffCommand\":\"ipmi-soft\"}}").status())
          .isEqualTo(200);
    }
  }

  @Test
  void syncItemIdsAreValidatedWhateverTheyMatch() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      f.jsonAs(ApiFixture.BMC, "POST", "/api/v1/sync", records(named(1, "n1")));
      long before = f.revision();
      // Same serial as n1 (so it would match n1), but an invalid id of its own.
      ObjectNode body = Codec.mapper().createObjectNode();
      ObjectNode item = body.putArray("items").addObject();
      item.put("id", "Bad ID/..");
      item.set("spec", Codec.mapper().valueToTree(named(1, "n1").toBuilder().rack("r5").build()));
      ApiFixture.Response r = f.json("POST", "/api/v1/sync", body.toString());
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.json().get("rejected").get(0).get("reason").asText()).startsWith("invalid id");
      assertThat(r.json().get("updated")).isEmpty();
      for (String id : List.of("-1", "0", "1.5", "\"7\"")) {
        String device =
            "{\"results\":[{\"id\":" + id + ",\"name\":\"n1\",\"serial\":\"SN100001\"}]}";
        ApiFixture.Response nb = f.json("POST", "/api/v1/sync?format=netbox", device);
        assertThat(nb.json().get("rejected").get(0).get("errors").findValuesAsText("field"))
            .as(id)
            .containsExactly("id");
      }
      assertThat(f.revision()).isEqualTo(before);
    }
  }
}
