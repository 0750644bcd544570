package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.StoreEdits;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Security issue 30, the API side: what a leaked write token (a DCIM job's) tried and must not do.
 * Each test is named by its attack. Real etcd, the real API over HTTP.
 */
class ApiWriteAttacksIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final String NODE = "/api/v1/nodes/n001";
  private static final String PIN = "999999999999999999";
  private static final List<String> EVERY_SCOPE =
      List.of(ApiFixture.WRITE, ApiFixture.BMC, ApiFixture.ADMIN);

  private static NodeSpec spec() {
    return Json.spec(1, "a");
  }

  private static String records(NodeSpec spec) {
    ObjectNode body = Codec.mapper().createObjectNode();
    ObjectNode item = body.putArray("items").addObject();
    item.put("id", "n001");
    item.set("spec", Codec.mapper().valueToTree(spec));
    return body.toString();
  }

  private static NodeSpec withLabel(NodeSpec spec, String key, String value) {
    Map<String, String> labels = new HashMap<>(spec.labels());
    labels.put(key, value);
    return spec.toBuilder().labels(labels).build();
  }

  private static String netbox(String lastUpdated) {
    ObjectNode body = Codec.mapper().createObjectNode();
    ObjectNode device = body.putArray("results").addObject();
    device.put("id", 7);
    device.put("name", "r1-u07");
    device.put("serial", "NB7");
    device.put("last_updated", lastUpdated);
    return body.toString();
  }

  @Test
  void attack_writeTokenRetargetsKubernetesNodeName() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      assertThat(f.jsonAs(ApiFixture.BMC, "PUT", NODE, Json.of(spec())).status()).isEqualTo(201);
      long before = f.revision();

      ApiFixture.Response patch =
          f.jsonAs(ApiFixture.WRITE, "PATCH", NODE, "{\"kubernetesNodeName\":\"cp-1\"}");
      assertThat(patch.status()).as(patch.toString()).isEqualTo(403);
      assertThat(patch.errorFields()).containsExactly("kubernetesNodeName");
      assertThat(patch.json().get("requiredScope").asText()).isEqualTo("bmc");
      ApiFixture.Response put =
          f.jsonAs(
              ApiFixture.WRITE,
              "PUT",
              NODE,
              Json.of(spec().toBuilder().kubernetesNodeName("cp-1").build()));
      assertThat(put.status()).isEqualTo(403);
      ApiFixture.Response sync =
          f.jsonAs(
              ApiFixture.WRITE,
              "POST",
              "/api/v1/sync",
              records(spec().toBuilder().name("n001").kubernetesNodeName("cp-1").build()));
      assertThat(sync.json().get("rejected").get(0).get("errors").findValuesAsText("field"))
          .contains("kubernetesNodeName");
      assertThat(f.revision()).isEqualTo(before);
      assertThat(f.get(NODE).json().at("/spec/kubernetesNodeName").isMissingNode()).isTrue();

      ApiFixture.Response bmc =
          f.jsonAs(ApiFixture.BMC, "PATCH", NODE, "{\"kubernetesNodeName\":\"k8s-n001\"}");
      assertThat(bmc.status()).as(bmc.toString()).isEqualTo(200);
      // the same value again is no change: write is enough
      assertThat(
              f.jsonAs(ApiFixture.WRITE, "PATCH", NODE, "{\"kubernetesNodeName\":\"k8s-n001\"}")
                  .status())
          .isEqualTo(200);
    }
  }

  @Test
  void attack_writeTokenPinsNetboxLastUpdated_putAndPatchRefusedAtEveryScope() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      assertThat(f.jsonAs(ApiFixture.BMC, "PUT", NODE, Json.of(spec())).status()).isEqualTo(201);
      long before = f.revision();
      for (String token : EVERY_SCOPE) {
        for (String label : List.of("netbox-last-updated", "bamel.io/pool")) {
          ApiFixture.Response patch =
              f.jsonAs(token, "PATCH", NODE, "{\"labels\":{\"" + label + "\":\"" + PIN + "\"}}");
          assertThat(patch.status()).as(token + " " + label + " " + patch).isEqualTo(400);
          assertThat(patch.errorFields()).containsExactly("labels." + label);
          assertThat(patch.json().get("detail").asText()).contains(label);
          ApiFixture.Response put =
              f.jsonAs(token, "PUT", NODE, Json.of(withLabel(spec(), label, PIN)));
          assertThat(put.status()).as(token + " " + label + " " + put).isEqualTo(400);
          assertThat(put.errorFields()).containsExactly("labels." + label);
        }
      }
      assertThat(f.revision()).isEqualTo(before);
      assertThat(f.get(NODE).json().at("/spec/labels/netbox-last-updated").isMissingNode())
          .isTrue();
    }
  }

  @Test
  void attack_writeTokenPinsNetboxLastUpdated_bothSyncFormatsRefused() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      assertThat(f.jsonAs(ApiFixture.BMC, "PUT", NODE, Json.of(spec())).status()).isEqualTo(201);
      long before = f.revision();
      for (String token : EVERY_SCOPE) {
        ApiFixture.Response r =
            f.jsonAs(
                token,
                "POST",
                "/api/v1/sync",
                records(withLabel(spec(), "netbox-last-updated", PIN)));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("rejected").findValuesAsText("id")).containsExactly("n001");
        assertThat(r.json().get("rejected").get(0).get("errors").findValuesAsText("field"))
            .containsExactly("labels.netbox-last-updated");
      }
      assertThat(f.revision()).isEqualTo(before);

      // NetBox's format through the API: last_updated is compared, never recorded
      ApiFixture.Response nb =
          f.jsonAs(
              ApiFixture.ADMIN,
              "POST",
              "/api/v1/sync?format=netbox",
              netbox("9999-12-31T23:59:59Z"));
      assertThat(nb.json().get("created").findValuesAsText("id")).containsExactly("r1-u07");
      JsonNode labels = f.get("/api/v1/nodes/r1-u07").json().at("/spec/labels");
      assertThat(labels.has("netbox-last-updated")).as(labels.toString()).isFalse();
    }
  }

  @Test
  void reservedLabelCarriedUnchanged_isKept() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      assertThat(f.jsonAs(ApiFixture.BMC, "PUT", NODE, Json.of(spec())).status()).isEqualTo(201);
      // the NetBox source wrote it (its own path: straight to the store here)
      StoreEdits.updateSpec(
          f.store, "n001", s -> withLabel(s, "netbox-last-updated", "1700000000000000"), null);
      f.cache.awaitRevision(f.revision(), Duration.ofSeconds(5));
      // a client GETs the node and PUTs it back, rack changed
      JsonNode got = f.get(NODE).json().get("spec");
      ((ObjectNode) got).put("rack", "r9");
      ApiFixture.Response put = f.jsonAs(ApiFixture.WRITE, "PUT", NODE, got.toString());
      assertThat(put.status()).as(put.toString()).isEqualTo(200);
      assertThat(f.get(NODE).json().at("/spec/labels/netbox-last-updated").asText())
          .isEqualTo("1700000000000000");
      // but not a new value
      ApiFixture.Response bump =
          f.jsonAs(
              ApiFixture.WRITE,
              "PATCH",
              NODE,
              "{\"labels\":{\"netbox-last-updated\":\"" + PIN + "\"}}");
      assertThat(bump.status()).isEqualTo(400);
    }
  }

  @Test
  void attack_unknownExtensionsMemberIsRefusedNotIgnored() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      ObjectNode body = Codec.mapper().valueToTree(spec());
      body.putObject("extensions").put("x", 1);
      ApiFixture.Response put = f.jsonAs(ApiFixture.BMC, "PUT", NODE, body.toString());
      assertThat(put.status()).as(put.toString()).isEqualTo(400);
      assertThat(put.errorFields()).containsExactly("extensions");
      assertThat(f.get(NODE).status()).isEqualTo(404);

      assertThat(f.jsonAs(ApiFixture.BMC, "PUT", NODE, Json.of(spec())).status()).isEqualTo(201);
      long before = f.revision();
      for (String patch :
          List.of(
              "{\"extensions\":{\"x\":1}}",
              "{\"rack\":\"r9\",\"extensions\":{}}",
              "{\"bmcTls\":{\"extensions\":{\"y\":true}}}")) {
        ApiFixture.Response r = f.jsonAs(ApiFixture.BMC, "PATCH", NODE, patch);
        assertThat(r.status()).as(patch + " -> " + r).isEqualTo(400);
        assertThat(r.errorFields()).as(patch).allMatch(p -> p.endsWith("extensions"));
      }
      ObjectNode sync = Codec.mapper().createObjectNode();
      ObjectNode item = sync.putArray("items").addObject();
      item.put("id", "n001");
      item.set("spec", body);
      ApiFixture.Response r = f.jsonAs(ApiFixture.BMC, "POST", "/api/v1/sync", sync.toString());
      assertThat(r.json().get("rejected").get(0).get("errors").findValuesAsText("field"))
          .containsExactly("extensions");
      assertThat(f.revision()).isEqualTo(before);
    }
  }
}
