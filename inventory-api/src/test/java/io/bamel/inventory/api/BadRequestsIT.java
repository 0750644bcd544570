package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.testing.EtcdExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A corpus of bad requests: every one must get a 4xx application/problem+json answer naming its
 * status, none a 5xx, none naming a Java class or carrying a library's message, and together they
 * must leave etcd's revision where it was. Sync bodies whose items are all bad get a 200 report
 * rejecting each of them, and write nothing either.
 */
public class BadRequestsIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final String MB = "x".repeat(1024 * 1024);

  /** One bad request, named for the failure report, that it sends through a fixture. */
  record Case(String name, Function<ApiFixture, ApiFixture.Response> request) {

    /** A request named {@code name}; see {@link CaseBuilder} for what it sends unless told. */
    static CaseBuilder to(String name, String method, String path) {
      return new CaseBuilder(name, method, path);
    }

    /** A JSON body sent by the admin. */
    static Case json(String name, String method, String path, String body) {
      return to(name, method, path).json(body).build();
    }
  }

  /**
   * Builds a {@link Case}. Unless told otherwise a request carries the admin's token, no body, no
   * content type and no other header.
   */
  static final class CaseBuilder {
    private final String name;
    private final String method;
    private final String path;
    private String token = ApiFixture.ADMIN;
    private String contentType;
    private byte[] body;
    private Map<String, String> headers = Map.of();

    private CaseBuilder(String name, String method, String path) {
      this.name = name;
      this.method = method;
      this.path = path;
    }

    /** The bearer token, {@code null} for none. */
    CaseBuilder token(String token) {
      this.token = token;
      return this;
    }

    /** A body of {@code contentType} ({@code null}: no Content-Type header). */
    CaseBuilder body(String contentType, byte[] body) {
      this.contentType = contentType;
      this.body = body;
      return this;
    }

    /** A JSON body: {@code application/json}, or {@code application/merge-patch+json} for PATCH. */
    CaseBuilder json(byte[] body) {
      return body(method.equals("PATCH") ? "application/merge-patch+json" : JSON, body);
    }

    /** A JSON body, as UTF-8. */
    CaseBuilder json(String body) {
      return json(bytes(body));
    }

    /** The request's one extra header. */
    CaseBuilder header(String name, String value) {
      this.headers = Map.of(name, value);
      return this;
    }

    Case build() {
      String token = this.token;
      String contentType = this.contentType;
      byte[] body = this.body;
      Map<String, String> headers = this.headers;
      return new Case(name, f -> f.send(method, path, token, contentType, body, headers));
    }
  }

  @Test
  void everyBadRequestIsA4xxProblemAndEtcdIsUnchanged() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a"))).status())
          .isEqualTo(201);
      assertThat(f.json("PUT", "/api/v1/nodes/n002", Json.of(Json.spec(2, "a"))).status())
          .isEqualTo(201);
      assertThat(f.json("PUT", "/api/v1/pools/a", "{\"maxNodes\":3}").status()).isEqualTo(201);
      List<Case> corpus = corpus();
      assertThat(corpus).hasSizeGreaterThanOrEqualTo(200);
      System.out.println("bad-request corpus: " + corpus.size() + " requests");
      long before = f.revision();
      List<String> failures = new ArrayList<>();
      for (Case c : corpus) {
        ApiFixture.Response r = c.request().apply(f);
        String problem = check(r);
        if (problem != null) {
          failures.add(c.name() + ": " + problem);
        }
      }
      assertThat(failures).isEmpty();
      assertThat(f.revision()).isEqualTo(before);
    }
  }

  /**
   * The corpus above only asks for some 4xx; these name the status each kind of fault must get, and
   * for invalid fields, the field in the problem's {@code errors}.
   */
  @Test
  void eachKindOfFaultGetsItsOwnStatus() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      String good = Json.of(Json.spec(1, "a"));
      assertThat(f.json("PUT", "/api/v1/nodes/n001", good).status()).isEqualTo(201);
      String node = "/api/v1/nodes/n003";
      String fresh = Json.of(Json.spec(3, "a"));
      byte[] freshBytes = bytes(fresh);
      long before = f.revision();

      for (String type : List.of("text/plain", "application/xml", "application/jsonx")) {
        expect(asAdmin(f, "PUT", node, type, freshBytes), 415, null);
        expect(asAdmin(f, "POST", "/api/v1/sync", type, bytes("{\"items\":[]}")), 415, null);
      }
      expect(asAdmin(f, "PUT", node, null, freshBytes), 415, null);
      expect(asAdmin(f, "PATCH", "/api/v1/nodes/n001", "application/xml", bytes("{}")), 415, null);

      // The default body limit is 8 MiB: a body just under it is read (and refused for its unknown
      // field), one just over it is refused for its size.
      String unknownField = with(fresh, "junk", "1");
      int limit = 8 * 1024 * 1024;
      expect(asAdmin(f, "PUT", node, JSON, padded(unknownField, limit - 1024)), 400, null);
      expect(asAdmin(f, "PUT", node, JSON, padded(fresh, limit + 1024)), 413, null);

      expect(f.json("PUT", node, without(fresh, "mgmtAddress")), 400, "mgmtAddress");
      expect(
          f.json("PUT", node, without(with(fresh, "powerInterface", q("wol")), "macAddress")),
          400,
          "macAddress");
      // configurations that validate field by field but can never work (issue 17.6)
      expect(
          f.json("PUT", node, with(fresh, "powerInterface", q("wol"))), 400, "wakeOnLan.probePort");
      expect(
          f.json(
              "PUT",
              node,
              with(
                  with(with(fresh, "powerInterface", q("wol")), "wakeOnLan", "{\"probePort\":22}"),
                  "bootProfile",
                  q("pxe-ubuntu-24"))),
          400,
          "bootProfile");
      expect(
          f.json(
              "PUT",
              node,
              with(
                  with(
                      with(fresh, "powerInterface", q("proxmox")),
                      "proxmox",
                      "{\"node\":\"pve1\",\"vmid\":101}"),
                  "bootProfile",
                  q("pxe"))),
          400,
          "bootProfile");
      expect(
          f.json("PATCH", "/api/v1/nodes/n001", "{\"powerInterface\":\"wol\"}"),
          400,
          "wakeOnLan.probePort");
      expect(f.json("PUT", node, with(fresh, "rackPosition", "\"7\"")), 400, "rackPosition");
      expect(f.json("PUT", node, "{\"serial\":"), 400, null);
      expect(f.send("PUT", node, null, JSON, freshBytes, Map.of()), 401, null);
      expect(
          f.send("PUT", node, ApiFixture.READ, "application/json", freshBytes, Map.of()),
          403,
          null);
      expect(f.get("/api/v1/nodes/n404"), 404, null);
      expect(f.json("PUT", node, with(fresh, "serial", q("SN100001"))), 409, null);
      expect(f.json("PUT", "/api/v1/nodes/n001", good, Map.of("If-Match", "\"1\"")), 412, null);
      expect(f.delete("/api/v1/nodes/n001?force=true", Map.of()), 428, null);

      assertThat(f.revision()).isEqualTo(before);
    }
  }

  private static final String JSON = "application/json";

  private static ApiFixture.Response asAdmin(
      ApiFixture f, String method, String path, String contentType, byte[] body) {
    return f.send(method, path, ApiFixture.ADMIN, contentType, body, Map.of());
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code json} with spaces before its closing brace, to {@code size} bytes. */
  private static byte[] padded(String json, int size) {
    byte[] bytes = new byte[size];
    java.util.Arrays.fill(bytes, (byte) ' ');
    byte[] head = json.substring(0, json.length() - 1).getBytes(StandardCharsets.UTF_8);
    System.arraycopy(head, 0, bytes, 0, head.length);
    bytes[size - 1] = '}';
    return bytes;
  }

  private static void expect(ApiFixture.Response r, int status, String field) throws Exception {
    assertThat(r.status()).as(r.toString()).isEqualTo(status);
    assertThat(check(r)).as(r.toString()).isNull();
    if (field != null) {
      JsonNode errors = Codec.mapper().readTree(r.raw().body()).path("errors");
      assertThat(errors).as(r.toString()).extracting(e -> e.path("field").asText()).contains(field);
    }
  }

  @Test
  void malformedRequestTargetsAreProblemsToo() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      long before = f.revision();
      for (String target :
          List.of(
              "/api/v1/nodes/%ZZ",
              "/api/v1/nodes?pool=%ZZ",
              "/api/v1/nodes?%ZZ=1",
              "/api/v1/nodes/a%2Fb",
              "/api/v1/nodes/%2e%2e/%2e%2e/x",
              "/api/v1/nodes/../../etc/passwd",
              "/api/v1/nodes/é")) {
        String[] answer = raw(f.api.port(), "GET " + target);
        int status = Integer.parseInt(answer[0].split(" ")[1]);
        assertThat(status).as(target + " -> " + answer[0]).isBetween(400, 499);
        assertThat(answer[1]).as(target).containsIgnoringCase("application/problem+json");
      }
      assertThat(f.revision()).isEqualTo(before);
    }
  }

  /** Sends a raw request line over a socket; returns the status line and the headers. */
  private static String[] raw(int port, String requestLine) throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      String request =
          requestLine
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
              + ApiFixture.READ
              + "\r\nConnection: close\r\n\r\n";
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      String response =
          new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      int end = response.indexOf("\r\n");
      int headersEnd = response.indexOf("\r\n\r\n");
      return new String[] {
        response.substring(0, end), response.substring(end, Math.max(end, headersEnd))
      };
    }
  }

  private static String check(ApiFixture.Response r) {
    if (r.status() < 400 || r.status() >= 500) {
      return "status " + r.status() + " " + cut(r.body());
    }
    if (r.contentType() == null || !r.contentType().startsWith("application/problem+json")) {
      return "content type " + r.contentType() + " " + cut(r.body());
    }
    JsonNode problem;
    try {
      problem = Codec.mapper().readTree(r.raw().body());
    } catch (Exception e) {
      return "not JSON: " + cut(r.body());
    }
    if (problem.path("status").asInt() != r.status()
        || !problem.path("type").isTextual()
        || !problem.path("title").isTextual()) {
      return "not a problem: " + cut(r.body());
    }
    if (r.body().contains("\tat ") || r.body().contains("Exception")) {
      return "stack trace: " + cut(r.body());
    }
    if (JAVA_NAMES.matcher(r.body()).find()) {
      return "names a Java class or quotes a library: " + cut(r.body());
    }
    if (r.body().length() > 10_000) {
      return "echoes the input: " + r.body().length() + " characters";
    }
    return null;
  }

  /** What a library's message looks like: qualified class names, config names, backticks. */
  public static final Pattern JAVA_NAMES =
      Pattern.compile(
          "(java|javax|jakarta|com\\.fasterxml|io\\.javalin|org\\.eclipse|io\\.bamel)\\."
              + "|Exception|`|\\b(JsonToken|CoercionConfig|StreamReadConstraints|StreamReadFeature"
              + "|DeserializationFeature|MapperFeature|LinkedHashMap|ArrayList|NullPointer|Creator"
              + "|REDACTED)\\b");

  @Test
  void theClassNameCheckCatchesWhatTheApiUsedToAnswer() {
    for (String leaked :
        List.of(
            "Cannot coerce Integer value (1) to `java.lang.String` value",
            "problem: `java.lang.NullPointerException`",
            "Unexpected end-of-input (start marker at [Source: REDACTED",
            "Document nesting depth (1001) exceeds the maximum allowed (1000, from"
                + " `StreamReadConstraints.getMaxNestingDepth()`)",
            "Cannot deserialize value of type `io.bamel.inventory.model.WakeOnLan`",
            "the body could not be read: EofException")) {
      assertThat(JAVA_NAMES.matcher(leaked).find()).as(leaked).isTrue();
    }
    assertThat(JAVA_NAMES.matcher("invalid JSON at line 1 column 7: a value is missing").find())
        .isFalse();
  }

  @Test
  void syncItemsWithBadIdsNamesOrScopesAreAllRejectedAndNothingIsWritten() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      assertThat(f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a"))).status())
          .isEqualTo(201);
      // n001's spec with another rack: it matches n001 by inventory id and serial.
      String moved = Json.of(Json.spec(1, "a").toBuilder().rack("r9").build());
      List<String> bodies = new ArrayList<>();
      for (String id :
          List.of("BAD", "a/../b", "x".repeat(64), "\u00e9t\u00e9", "", " n001", "n001\n")) {
        bodies.add("{\"items\":[{\"id\":" + q(id) + ",\"spec\":" + moved + "}]}");
      }
      String host300 = "h" + ".abcdefghi".repeat(30);
      bodies.add(
          "{\"items\":[{\"id\":\"n009\",\"spec\":"
              + with(Json.of(Json.spec(9, "a")), "kubernetesNodeName", q("Bad Name!"))
              + "},{\"id\":\"n010\",\"spec\":"
              + with(Json.of(Json.spec(10, "a")), "mgmtAddress", q("https://" + host300))
              + "},{\"id\":\"n011\",\"spec\":"
              + with(Json.of(Json.spec(11, "a")), "labels", "{\"k\":null}")
              + "}]}");
      // configurations that can never work (issue 17.6): a WoL node without a probe, pxe on proxmox
      bodies.add(
          "{\"items\":[{\"id\":\"n013\",\"spec\":"
              + Json.of(
                  Json.spec(13, "a").toBuilder()
                      .powerInterface(io.bamel.inventory.model.PowerInterface.of("wol"))
                      .bmcCredentials(null)
                      .build())
              + "},{\"id\":\"n014\",\"spec\":"
              + Json.of(
                  Json.spec(14, "a").toBuilder()
                      .powerInterface(io.bamel.inventory.model.PowerInterface.of("proxmox"))
                      .bootProfile("pxe")
                      .build()
                      .withSettings("proxmox", java.util.Map.of("node", "pve1", "vmid", 101)))
              + "}]}");
      List<String> netbox = new ArrayList<>();
      for (String id : List.of("-1", "0", "\"7\"", "1.5", "null", "true", "-9223372036854775808")) {
        netbox.add("{\"results\":[{\"id\":" + id + ",\"name\":\"n001\",\"serial\":\"SN100001\"}]}");
      }
      netbox.add(
          "{\"results\":[{\"id\":12,\"name\":\"nb12\",\"oob_ip\":{\"address\":"
              + q(host300 + "/24")
              + "}}]}");
      netbox.add(
          "{\"results\":[{\"id\":15,\"name\":\"nb15\",\"serial\":\"SN15\",\"custom_fields\":"
              + "{\"bamel_power_interface\":\"wol\",\"bamel_mgmt_address\":\"192.0.2.15\","
              + "\"bamel_mac_address\":\"0c:c4:7a:00:00:0f\"}}]}");
      long before = f.revision();
      List<String> failures = new ArrayList<>();
      for (String body : bodies) {
        failures.addAll(allRejected(f, "/api/v1/sync", ApiFixture.ADMIN, body));
      }
      for (String body : netbox) {
        failures.addAll(allRejected(f, "/api/v1/sync?format=netbox", ApiFixture.ADMIN, body));
      }
      // A write token may not move n001's BMC, nor create a node with one.
      String bmcMoved =
          Json.of(Json.spec(1, "a").toBuilder().mgmtAddress("https://127.0.0.1:9").build());
      failures.addAll(
          allRejected(
              f,
              "/api/v1/sync",
              ApiFixture.WRITE,
              "{\"items\":[{\"id\":\"n001\",\"spec\":"
                  + bmcMoved
                  + "},{\"id\":\"n012\",\"spec\":"
                  + Json.of(Json.spec(12, "a"))
                  + "}]}"));
      assertThat(failures).isEmpty();
      assertThat(f.revision()).isEqualTo(before);
    }
  }

  /** Why a sync of {@code body} did not reject every item, empty when it did. */
  private static List<String> allRejected(ApiFixture f, String path, String token, String body)
      throws Exception {
    ApiFixture.Response r =
        f.send("POST", path, token, JSON, body.getBytes(StandardCharsets.UTF_8), Map.of());
    String what = cut(body);
    if (r.status() != 200) {
      return List.of(what + ": status " + r);
    }
    if (JAVA_NAMES.matcher(r.body()).find()) {
      return List.of(what + ": names a Java class: " + cut(r.body()));
    }
    JsonNode report = r.json();
    int items =
        Codec.mapper().readTree(body).path(path.contains("netbox") ? "results" : "items").size();
    List<String> problems = new ArrayList<>();
    for (String part : List.of("created", "updated", "unchanged", "deleted")) {
      if (!report.get(part).isEmpty()) {
        problems.add(what + ": " + part + " " + report.get(part));
      }
    }
    if (report.get("rejected").size() != items) {
      problems.add(what + ": rejected " + report.get("rejected"));
    }
    return problems;
  }

  private static String cut(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }

  static List<Case> corpus() {
    List<Case> cases = new ArrayList<>();
    String node = "/api/v1/nodes/n003";
    String good = Json.of(Json.spec(3, "a"));

    // Wrong types, one field at a time.
    String[][] wrongTypes = {
      {"name", "123"},
      {"name", "true"},
      {"name", "{}"},
      {"name", "[]"},
      {"serial", "1"},
      {"serial", "false"},
      {"serial", "[\"a\"]"},
      {"inventoryId", "7"},
      {"assetTag", "{}"},
      {"site", "3.5"},
      {"rack", "[]"},
      {"rackPosition", "\"7\""},
      {"rackPosition", "1.5"},
      {"rackPosition", "true"},
      {"rackPosition", "99999999999999999999"},
      {"rackPosition", "1e400"},
      {"rackPosition", "{}"},
      {"pool", "5"},
      {"pool", "\"UPPER\""},
      {"pool", "\"a/b\""},
      {"pool", "\"..\""},
      {"mgmtAddress", "42"},
      {"macAddress", "42"},
      {"powerInterface", "1"},
      {"powerInterface", "\"snmp\""},
      {"powerInterface", "\"\""},
      {"bmcCredentials", "\"a b\""},
      {"bmcCredentials", "\"../secret\""},
      {"bootProfile", "[]"},
      {"labels", "\"x\""},
      {"labels", "[]"},
      {"labels", "{\"k\":1}"},
      {"labels", "{\"k\":true}"},
      {"labels", "{\"bad key\":\"v\"}"},
      {"labels", "{\"k\":\"bad value!\"}"},
      {"maintenance", "\"yes\""},
      {"maintenance", "1"},
      {"idlePowerWatts", "\"5\""},
      {"idlePowerWatts", "-5"},
      {"idlePowerWatts", "true"},
      {"resources", "\"big\""},
      {"resources", "[]"},
      {"resources", "{\"cpu\":{}}"},
      {"resources", "{\"cpu\":true}"},
      {"kubernetesNodeName", "0"},
      {"bmcTls", "\"on\""},
      {"ipmi", "\"on\""},
      {"ipmi", "{\"cipherSuite\":18}"},
      {"ipmi", "{\"cipherSuite\":-1}"},
      {"ipmi", "{\"cipherSuite\":\"three\"}"},
      {"ipmi", "{\"privilege\":\"ROOT\"}"},
      {"proxmox", "7"},
      {"wakeOnLan", "[]"},
      {"powerState", "\"sideways\""},
      {"powerState", "1"},
      {"powerPolicy", "\"auto\""},
      {"unknownField", "1"},
      {"serail", "\"typo\""},
    };
    for (String[] wt : wrongTypes) {
      cases.add(Case.json("PUT " + wt[0] + "=" + wt[1], "PUT", node, with(good, wt[0], wt[1])));
      cases.add(
          Case.json(
              "PATCH " + wt[0] + "=" + wt[1],
              "PATCH",
              "/api/v1/nodes/n001",
              "{\"" + wt[0] + "\":" + wt[1] + "}"));
    }

    // Quantities that are not quantities, and negative ones.
    for (String q :
        List.of("abc", "1.5.5", "-1", "-4Gi", "12XB", "", " ", "1e", "Gi", "0x10", "NaN", "∞")) {
      cases.add(
          Case.json("cpu " + q, "PUT", node, with(good, "resources", "{\"cpu\":\"" + q + "\"}")));
      cases.add(
          Case.json(
              "memory " + q,
              "PATCH",
              "/api/v1/nodes/n001",
              "{\"resources\":{\"memory\":\"" + q + "\"}}"));
    }

    // Fields the power interface needs, missing (n001 is a Redfish node).
    for (String[] missing :
        new String[][] {
          {"redfish", "mgmtAddress"},
          {"ipmi", "mgmtAddress"},
          {"proxmox", "mgmtAddress"},
          {"proxmox", "proxmox"},
          {"wol", "macAddress"},
        }) {
      cases.add(
          Case.json(
              "PUT " + missing[0] + " without " + missing[1],
              "PUT",
              node,
              without(with(good, "powerInterface", q(missing[0])), missing[1])));
    }
    cases.add(
        Case.json(
            "PATCH mgmtAddress away", "PATCH", "/api/v1/nodes/n001", "{\"mgmtAddress\":null}"));
    cases.add(
        Case.json(
            "PUT wol without a probe port",
            "PUT",
            node,
            with(
                with(good, "powerInterface", q("wol")),
                "wakeOnLan",
                "{\"broadcast\":\"192.0.2.255:9\"}")));
    for (String[] pxe :
        new String[][] {
          {"wol", "wakeOnLan", "{\"probePort\":22}"},
          {"proxmox", "proxmox", "{\"node\":\"pve1\",\"vmid\":101}"},
        }) {
      cases.add(
          Case.json(
              "PUT pxe on " + pxe[0],
              "PUT",
              node,
              with(
                  with(with(good, "powerInterface", q(pxe[0])), pxe[1], pxe[2]),
                  "bootProfile",
                  q("pxe"))));
    }
    cases.add(
        Case.json(
            "PATCH pxe on a node switched to proxmox",
            "PATCH",
            "/api/v1/nodes/n001",
            "{\"powerInterface\":\"proxmox\",\"proxmox\":{\"node\":\"pve1\",\"vmid\":101},"
                + "\"bootProfile\":\"pxe\"}"));
    cases.add(
        Case.json(
            "PATCH to wol without a MAC",
            "PATCH",
            "/api/v1/nodes/n001",
            "{\"powerInterface\":\"wol\",\"macAddress\":null}"));

    // MAC and management addresses that are not.
    for (String mac :
        List.of(
            "zz:zz:zz:zz:zz:zz",
            "00:11:22:33:44",
            "00:11:22:33:44:55:66",
            "00-11:22-33:44-55",
            "0011.2233.4455",
            "001122334455",
            "",
            "00:11:22:33:44:5g")) {
      cases.add(Case.json("mac " + mac, "PUT", node, with(good, "macAddress", q(mac))));
    }
    for (String addr :
        List.of(
            "",
            " ",
            "https://user:pass@bmc1",
            "ftp://bmc1",
            "https://",
            "bmc 1",
            "fd00::5",
            "[fd00::5",
            "192.0.2.1:99999",
            "https://bmc1/?q=1",
            "bmc1\n",
            "ünïcode")) {
      cases.add(
          Case.json(
              "mgmtAddress " + addr,
              "PUT",
              node,
              with(good, "mgmtAddress", Codec.mapper().valueToTree(addr).toString())));
    }

    // 1 MB strings.
    for (String field :
        List.of(
            "name",
            "serial",
            "inventoryId",
            "assetTag",
            "site",
            "rack",
            "bootProfile",
            "kubernetesNodeName",
            "mgmtAddress",
            "macAddress",
            "bmcCredentials",
            "pool")) {
      cases.add(Case.json("1MB " + field, "PUT", node, with(good, field, q(MB))));
    }
    cases.add(
        Case.json("1MB label value", "PUT", node, with(good, "labels", "{\"k\":" + q(MB) + "}")));
    cases.add(
        Case.json("1MB label key", "PUT", node, with(good, "labels", "{" + q(MB) + ":\"v\"}")));
    cases.add(Case.json("1MB unknown field", "PUT", node, with(good, "junk", q(MB))));
    cases.add(
        Case.json("1MB power", "POST", "/api/v1/nodes/n001/power", "{\"state\":" + q(MB) + "}"));
    cases.add(Case.json("1MB pool name", "PUT", "/api/v1/pools/" + "p".repeat(70), "{}"));

    // Ids with '/', '..', upper case, too long, non-ASCII.
    for (String id :
        List.of(
            "a..b",
            "..",
            "UPPER",
            "-lead",
            "trail-",
            "a_b",
            "a%2Fb",
            "%2F",
            "a%2F..%2Fb",
            "%2E%2E",
            "x".repeat(64),
            "%C3%A9t%C3%A9",
            "a%00b",
            "a%20b",
            ".hidden")) {
      cases.add(Case.json("PUT id " + id, "PUT", "/api/v1/nodes/" + id, good));
      cases.add(Case.to("GET id " + id, "GET", "/api/v1/nodes/" + id).build());
    }
    cases.add(Case.json("pool name ..", "PUT", "/api/v1/pools/a..b", "{}"));
    cases.add(Case.json("pool name upper", "PUT", "/api/v1/pools/GPU", "{}"));

    // Duplicate keys.
    cases.add(Case.json("dup top", "PUT", node, "{\"serial\":\"a\",\"serial\":\"b\"}"));
    cases.add(Case.json("dup nested", "PUT", node, "{\"labels\":{\"k\":\"a\",\"k\":\"b\"}}"));
    cases.add(
        Case.json("dup patch", "PATCH", "/api/v1/nodes/n001", "{\"rack\":\"a\",\"rack\":\"b\"}"));
    cases.add(Case.json("dup pool", "PUT", "/api/v1/pools/b", "{\"minNodes\":1,\"minNodes\":2}"));
    cases.add(
        Case.json(
            "dup power",
            "POST",
            "/api/v1/nodes/n001/power",
            "{\"state\":\"on\",\"state\":\"off\"}"));
    cases.add(Case.json("dup sync", "POST", "/api/v1/sync", "{\"items\":[],\"items\":[]}"));

    // Wrong content types.
    for (String type :
        List.of(
            "text/plain",
            "application/xml",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=latin1",
            "application/jsonx",
            "json")) {
      byte[] body = good.getBytes(StandardCharsets.UTF_8);
      cases.add(Case.to("type " + type, "PUT", node).body(type, body).build());
      cases.add(
          Case.to("sync type " + type, "POST", "/api/v1/sync")
              .body(type, bytes("{\"items\":[]}"))
              .build());
    }
    cases.add(Case.to("no type", "PUT", node).body(null, bytes(good)).build());
    cases.add(
        Case.to("patch as xml", "PATCH", "/api/v1/nodes/n001")
            .body("application/xml", bytes("{}"))
            .build());

    // Broken JSON.
    for (String broken :
        List.of(
            "",
            "{",
            "[",
            "}",
            "{\"a\":}",
            "{\"a\" 1}",
            "nul",
            "{}}",
            "{} {}",
            "{\"a\":1,}",
            "{'a':1}",
            "{\"a\":\"unterminated}",
            "\u0000",
            "{\"a\":tru}",
            "[1,2",
            "\"just a string\"",
            "42",
            "null",
            "[".repeat(5000) + "]".repeat(5000),
            "{\"a\":".repeat(3000) + "1" + "}".repeat(3000),
            "{\"serial\":\"\\uZZZZ\"}")) {
      cases.add(Case.json("broken PUT " + cut(broken), "PUT", node, broken));
      cases.add(Case.json("broken PATCH " + cut(broken), "PATCH", "/api/v1/nodes/n001", broken));
      cases.add(Case.json("broken sync " + cut(broken), "POST", "/api/v1/sync", broken));
    }
    cases.add(
        Case.to("invalid UTF-8", "PUT", node)
            .json(new byte[] {'{', '"', 'n', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}'})
            .build());

    // Power requests.
    for (String body :
        List.of(
            "{}",
            "[]",
            "\"on\"",
            "{\"state\":\"maybe\"}",
            "{\"state\":1}",
            "{\"state\":null}",
            "{\"policy\":\"auto\"}",
            "{\"state\":\"on\",\"policy\":\"pool\"}",
            "{\"state\":\"on\",\"extra\":1}",
            "{\"State\":\"on\"}")) {
      cases.add(Case.json("power " + body, "POST", "/api/v1/nodes/n001/power", body));
    }
    cases.add(
        Case.json(
            "power on missing node", "POST", "/api/v1/nodes/n404/power", "{\"state\":\"on\"}"));
    cases.add(
        Case.json(
            "pool policy without pool",
            "POST",
            "/api/v1/nodes/n001/power",
            "{\"policy\":\"pool\",\"x\":1}"));

    // Sync envelopes and parameters.
    for (String body :
        List.of(
            "[]",
            "{\"items\":{}}",
            "{\"items\":null}",
            "{\"results\":[]}",
            "{\"items\":[],\"x\":1}")) {
      cases.add(Case.json("sync body " + body, "POST", "/api/v1/sync", body));
    }
    cases.add(Case.json("netbox body", "POST", "/api/v1/sync?format=netbox", "{\"items\":[]}"));
    for (String query :
        List.of(
            "format=xml",
            "dryRun=maybe",
            "prune=1",
            "prune=true",
            "pool=a",
            "unknown=1",
            "prune=true&labels=bad",
            "dryRun=true&dryRun=false")) {
      cases.add(Case.json("sync ?" + query, "POST", "/api/v1/sync?" + query, "{\"items\":[]}"));
    }

    // Listing parameters.
    for (String query :
        List.of(
            "limit=0",
            "limit=-1",
            "limit=abc",
            "limit=1000000",
            "limit=1.5",
            "continue=garbage",
            "continue=" + "A".repeat(300),
            "continue=MTIzL24wMDEvMA",
            "state=bogus",
            "powerState=maybe",
            "mac=zz",
            "labels=novalue",
            "labels=bad%20key=v",
            "foo=bar",
            "serial=a&serial=b",
            "pool=a,,b",
            "labelSelector=a%20in%20(b",
            "serial=")) {
      cases.add(
          Case.to("list ?" + query, "GET", "/api/v1/nodes?" + query)
              .token(ApiFixture.READ)
              .build());
    }
    cases.add(
        Case.to("watch since", "GET", "/api/v1/watch?since=abc").token(ApiFixture.READ).build());
    cases.add(
        Case.to("watch negative", "GET", "/api/v1/watch?since=-1").token(ApiFixture.READ).build());
    cases.add(
        Case.to("get with param", "GET", "/api/v1/nodes/n001?x=1").token(ApiFixture.READ).build());

    // Preconditions.
    for (String tag : List.of("\"1\"", "W/\"1\"", "garbage", "\"-1\"", "\"99999999999\"")) {
      cases.add(
          Case.to("If-Match " + tag, "PUT", "/api/v1/nodes/n001")
              .json(Json.of(Json.spec(1, "a")))
              .header("If-Match", tag)
              .build());
      cases.add(
          Case.to("DELETE If-Match " + tag, "DELETE", "/api/v1/nodes/n001")
              .header("If-Match", tag)
              .build());
    }
    cases.add(Case.to("force without If-Match", "DELETE", "/api/v1/nodes/n001?force=true").build());
    cases.add(Case.to("force=maybe", "DELETE", "/api/v1/nodes/n001?force=maybe").build());
    cases.add(
        Case.json("create-only existing", "PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a"))));
    cases.set(
        cases.size() - 1,
        Case.to("If-None-Match existing", "PUT", "/api/v1/nodes/n001")
            .json(Json.of(Json.spec(1, "a")))
            .header("If-None-Match", "*")
            .build());

    // Unique fields used by another node.
    cases.add(Case.json("dup serial", "PUT", node, with(good, "serial", q("SN100001"))));
    cases.add(
        Case.json(
            "dup mac", "PATCH", "/api/v1/nodes/n002", "{\"macAddress\":\"0c:c4:7a:00:00:01\"}"));
    cases.add(
        Case.json(
            "dup address",
            "PATCH",
            "/api/v1/nodes/n002",
            "{\"mgmtAddress\":\"https://[2001:db8::1:0:1]\"}"));

    // Pools.
    for (String body :
        List.of(
            "{\"minNodes\":\"1\"}",
            "{\"minNodes\":-1}",
            "{\"maxNodes\":-3}",
            "{\"minNodes\":5,\"maxNodes\":1}",
            "{\"scaleUpThreshold\":2}",
            "{\"scaleDownThreshold\":0.9,\"scaleUpThreshold\":0.5}",
            "{\"scaleDownUnneededTime\":\"10 parsecs\"}",
            "{\"scaleDownUnneededTime\":600}",
            "{\"maxConcurrentTransitions\":0}",
            "{\"resources\":[]}",
            "{\"scaleUpOn\":\"sometimes\"}",
            "{\"triggers\":\"x\"}",
            "{\"labels\":{\"k\":1}}",
            "{\"bogus\":1}",
            "[]")) {
      cases.add(Case.json("pool " + body, "PUT", "/api/v1/pools/b", body));
      cases.add(Case.json("pool patch " + body, "PATCH", "/api/v1/pools/a", body));
    }
    cases.add(Case.json("patch missing pool", "PATCH", "/api/v1/pools/nope", "{\"maxNodes\":1}"));
    cases.add(Case.to("delete pool with members", "DELETE", "/api/v1/pools/a").build());
    cases.add(Case.to("delete missing pool", "DELETE", "/api/v1/pools/nope").build());

    // Authentication and scopes.
    cases.add(Case.to("no token", "PUT", node).token(null).json(good).build());
    cases.add(Case.to("read token writes", "PUT", node).token(ApiFixture.READ).json(good).build());
    cases.add(Case.to("unknown token", "GET", "/api/v1/nodes").token("nope").build());
    cases.add(
        Case.to("basic auth", "GET", "/api/v1/nodes")
            .token(null)
            .header("Authorization", "Basic YTpi")
            .build());
    cases.add(
        Case.to("empty bearer", "GET", "/api/v1/nodes")
            .token(null)
            .header("Authorization", "Bearer ")
            .build());
    cases.add(
        Case.to("write token force", "DELETE", "/api/v1/nodes/n001?force=true")
            .token(ApiFixture.WRITE)
            .header("If-Match", "*")
            .build());
    cases.add(
        Case.to("write token pool", "DELETE", "/api/v1/pools/a").token(ApiFixture.WRITE).build());

    // Methods and routes that do not exist.
    cases.add(Case.to("POST node", "POST", "/api/v1/nodes/n001").json("{}").build());
    cases.add(Case.to("DELETE nodes", "DELETE", "/api/v1/nodes").build());
    cases.add(Case.to("no such route", "GET", "/api/v2/nodes").build());
    cases.add(Case.to("no such node", "GET", "/api/v1/nodes/n404").build());
    cases.add(Case.to("patch missing node", "PATCH", "/api/v1/nodes/n404").json("{}").build());
    cases.add(Case.to("delete missing node", "DELETE", "/api/v1/nodes/n404").build());

    cases.addAll(unicodeCases(node, good));
    cases.addAll(nullEntryCases(node, good));
    cases.addAll(nameCases(node, good));
    cases.addAll(powerControlCases(node, good));

    // Over the body limit (default 8 MiB).
    byte[] huge = new byte[9 * 1024 * 1024];
    java.util.Arrays.fill(huge, (byte) ' ');
    huge[0] = '{';
    huge[huge.length - 1] = '}';
    cases.add(Case.to("9 MiB body", "PUT", node).json(huge).build());
    return cases;
  }

  private static Case bytes(String name, String method, String path, byte[] body) {
    return Case.to(name, method, path).json(body).build();
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** Lone surrogates (escaped and raw), byte order marks, UTF-16, overlong and NUL bytes. */
  static List<Case> unicodeCases(String node, String good) {
    List<Case> cases = new ArrayList<>();
    String patch = "/api/v1/nodes/n001";
    for (String escape : List.of("\\ud800", "\\udc00", "x\\ud83dy", "\\udfff\\ud800")) {
      String s = "\"" + escape + "\"";
      // Spliced as text: parsing and writing the JSON again would turn the escape into '?'.
      String head = good.substring(0, good.length() - 1);
      cases.add(
          Case.json("surrogate tag " + escape, "PUT", node, head + ",\"assetTag\":" + s + "}"));
      cases.add(Case.json("surrogate patch " + escape, "PATCH", patch, "{\"rack\":" + s + "}"));
      cases.add(
          Case.json(
              "surrogate label " + escape,
              "PUT",
              node,
              good.replace("\"labels\":{}", "\"labels\":{\"k\":" + s + "}")));
      cases.add(
          Case.json("surrogate key " + escape, "PATCH", patch, "{\"labels\":{" + s + ":\"v\"}}"));
      cases.add(
          Case.json(
              "surrogate sync " + escape,
              "POST",
              "/api/v1/sync",
              "{\"items\":[{\"id\":\"n009\",\"spec\":{\"name\":" + s + "}}]}"));
      cases.add(
          Case.json(
              "surrogate netbox " + escape,
              "POST",
              "/api/v1/sync?format=netbox",
              "{\"results\":[{\"id\":9,\"name\":" + s + "}]}"));
      cases.add(
          Case.json(
              "surrogate pool " + escape,
              "PUT",
              "/api/v1/pools/b",
              "{\"labels\":{\"k\":" + s + "}}"));
      cases.add(
          Case.json(
              "surrogate power " + escape,
              "POST",
              "/api/v1/nodes/n001/power",
              "{\"state\":" + s + "}"));
    }
    // A surrogate encoded as UTF-8 bytes (CESU-8), overlong forms, truncated sequences.
    byte[][] badUtf8 = {
      {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
      {(byte) 0xed, (byte) 0xbf, (byte) 0xbf},
      {(byte) 0xc0, (byte) 0xaf},
      {(byte) 0xe0, (byte) 0x80, (byte) 0xaf},
      {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
      {(byte) 0xe2, (byte) 0x82},
      {(byte) 0x80},
    };
    for (byte[] bad : badUtf8) {
      String hex = java.util.HexFormat.of().formatHex(bad);
      byte[] body = concat(bytes("{\"name\":\"a"), bad, bytes("b\"}"));
      cases.add(bytes("utf-8 " + hex, "PUT", node, body));
      cases.add(
          bytes(
              "utf-8 sync " + hex,
              "POST",
              "/api/v1/sync",
              concat(
                  bytes("{\"items\":[{\"id\":\"x\",\"spec\":{\"name\":\""), bad, bytes("\"}}]}"))));
    }
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
    cases.add(bytes("BOM PUT", "PUT", node, concat(bom, bytes(good))));
    cases.add(bytes("BOM PATCH", "PATCH", patch, concat(bom, bytes("{\"rack\":\"r1\"}"))));
    cases.add(bytes("BOM sync", "POST", "/api/v1/sync", concat(bom, bytes("{\"items\":[]}"))));
    cases.add(bytes("BOM pool", "PUT", "/api/v1/pools/b", concat(bom, bytes("{}"))));
    cases.add(
        bytes(
            "BOM power",
            "POST",
            "/api/v1/nodes/n001/power",
            concat(bom, bytes("{\"state\":\"off\"}"))));
    cases.add(bytes("UTF-16BE", "PUT", node, good.getBytes(StandardCharsets.UTF_16BE)));
    cases.add(bytes("UTF-16LE", "PUT", node, good.getBytes(StandardCharsets.UTF_16LE)));
    cases.add(bytes("UTF-16 with BOM", "PUT", node, good.getBytes(StandardCharsets.UTF_16)));
    cases.add(
        bytes(
            "UTF-32",
            "PATCH",
            patch,
            "{\"rack\":\"r1\"}".getBytes(java.nio.charset.Charset.forName("UTF-32"))));
    cases.add(
        bytes(
            "NUL in body",
            "PUT",
            node,
            concat(bytes("{\"name\":\"a"), new byte[] {0}, bytes("\"}"))));
    return cases;
  }

  /**
   * Null map values and list elements, which the model used to meet with a NullPointerException.
   */
  static List<Case> nullEntryCases(String node, String good) {
    List<Case> cases = new ArrayList<>();
    cases.add(Case.json("pool label null", "PUT", "/api/v1/pools/p", "{\"labels\":{\"k\":null}}"));
    cases.add(Case.json("pool resources null", "PUT", "/api/v1/pools/p", "{\"resources\":[null]}"));
    cases.add(
        Case.json(
            "pool resources null 2", "PUT", "/api/v1/pools/p", "{\"resources\":[\"cpu\",null]}"));
    cases.add(Case.json("pool triggers null", "PUT", "/api/v1/pools/p", "{\"triggers\":[null]}"));
    cases.add(
        Case.json("pool patch triggers null", "PATCH", "/api/v1/pools/a", "{\"triggers\":[null]}"));
    cases.add(Case.json("node label null", "PUT", node, with(good, "labels", "{\"k\":null}")));
    cases.add(
        Case.json(
            "node custom resource null",
            "PUT",
            node,
            with(good, "resources", "{\"custom\":{\"example.com/fpga\":null}}")));
    return cases;
  }

  /** Host names and Kubernetes node names that are not RFC 1123 names. */
  static List<Case> nameCases(String node, String good) {
    List<Case> cases = new ArrayList<>();
    for (String name :
        List.of(
            "Bad Name!",
            "UPPER",
            "-lead",
            "trail-",
            "a..b",
            "under_score",
            "dot.",
            "x".repeat(64),
            "a." + "b".repeat(63) + ".c" + ".d".repeat(100),
            "ünï")) {
      cases.add(
          Case.json(
              "k8s name " + cut(name), "PUT", node, with(good, "kubernetesNodeName", q(name))));
      cases.add(
          Case.json(
              "k8s name patch " + cut(name),
              "PATCH",
              "/api/v1/nodes/n001",
              "{\"kubernetesNodeName\":" + q(name) + "}"));
    }
    String host300 = "h" + ".abcdefghi".repeat(30);
    for (String address :
        List.of(
            "https://" + host300,
            host300,
            "https://" + "a".repeat(64) + ".example",
            "https://bmc_1.example",
            "bmc_1:623",
            "https://bmc1:0",
            "https://bmc1:70000",
            "https://256.1.1.1",
            "https://-bmc.example",
            "bmc..example")) {
      cases.add(
          Case.json("host " + cut(address), "PUT", node, with(good, "mgmtAddress", q(address))));
    }
    cases.add(
        Case.json(
            "broadcast host",
            "PUT",
            node,
            with(good, "wakeOnLan", "{\"broadcast\":" + q(host300) + "}")));
    return cases;
  }

  /** Command text for a power-off command, and power-control changes by a write token. */
  static List<Case> powerControlCases(String node, String good) {
    List<Case> cases = new ArrayList<>();
    String wol = with(with(good, "powerInterface", q("wol")), "bmcCredentials", "null");
    for (String command :
        List.of(
            "ssh -i /keys/id root@192.0.2.5 poweroff",
            "/usr/sbin/poweroff",
            "off; reboot",
            "$(curl 192.0.2.1)",
            "`id`",
            "Off",
            "",
            "a".repeat(64),
            "not-defined")) {
      cases.add(
          Case.json(
              "command " + cut(command),
              "PUT",
              node,
              with(wol, "wakeOnLan", "{\"probePort\":22,\"powerOffCommand\":" + q(command) + "}")));
    }
    cases.add(
        Case.json(
            "command patch",
            "PATCH",
            "/api/v1/nodes/n001",
            "{\"powerInterface\":\"wol\",\"wakeOnLan\":{\"powerOffCommand\":\"sh -c id\"}}"));
    cases.add(
        Case.to("write creates bmc node", "PUT", "/api/v1/nodes/n004")
            .token(ApiFixture.WRITE)
            .json(Json.of(Json.spec(4, "a")))
            .build());
    for (String patch :
        List.of(
            "{\"mgmtAddress\":\"https://127.0.0.1:9\"}",
            "{\"mgmtAddress\":\"http://192.0.2.66\"}",
            "{\"bmcCredentials\":\"root-creds\"}",
            "{\"bmcTls\":{\"insecureSkipVerify\":true}}",
            "{\"ipmi\":{\"privilege\":\"OPERATOR\"}}",
            "{\"powerInterface\":\"ipmi\"}",
            "{\"powerInterface\":null}",
            "{\"proxmox\":{\"node\":\"pve\",\"vmid\":100}}",
            "{\"wakeOnLan\":{\"probePort\":22}}")) {
      cases.add(
          Case.to("write patch " + patch, "PATCH", "/api/v1/nodes/n001")
              .token(ApiFixture.WRITE)
              .json(patch)
              .build());
    }
    return cases;
  }

  private static String q(String s) {
    return Codec.mapper().valueToTree(s).toString();
  }

  private static String without(String json, String field) {
    try {
      ObjectNode tree = (ObjectNode) Codec.mapper().readTree(json);
      tree.remove(field);
      return tree.toString();
    } catch (Exception e) {
      throw new IllegalArgumentException("not a JSON object: " + json, e);
    }
  }

  private static String with(String json, String field, String rawValue) {
    try {
      ObjectNode tree = (ObjectNode) Codec.mapper().readTree(json);
      tree.set(field, Codec.mapper().readTree(rawValue));
      return tree.toString();
    } catch (Exception e) {
      // The value is not JSON on its own (a deliberately broken one): splice it in as text.
      return json.substring(0, json.length() - 1) + ",\"" + field + "\":" + rawValue + "}";
    }
  }
}
