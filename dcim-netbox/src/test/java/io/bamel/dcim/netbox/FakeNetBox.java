package io.bamel.dcim.netbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import io.bamel.inventory.store.Codec;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * NetBox's REST API as WireMock serves it for the tests: device and interface lists in NetBox's own
 * shapes (written after NetBox's DeviceSerializer, InterfaceSerializer and MACAddressSerializer of
 * each version), paged as NetBox pages them (offset with {@code count}, or from 4.6 a {@code start}
 * cursor with {@code count} null), with {@code next} links built from another host name (as NetBox
 * builds them from the Host header behind a proxy), the {@code API-Version} header, and bulk PATCH
 * accepted. Shipped in this module's test-jar for the benchmarks.
 */
public final class FakeNetBox implements AutoCloseable {

  /** The NetBox versions the tests serve. */
  public enum Version {
    /**
     * 3.7: one MAC per interface ({@code mac_address}); {@code device_role} beside {@code role}.
     */
    V3_7("3.7", false, false, false),
    /**
     * 4.2: MAC-address objects ({@code primary_mac_address}, {@code mac_addresses}); {@code
     * ?fields=} (from 4.0) renders only the fields named.
     */
    V4_2("4.2", true, false, true),
    /** 4.6: as 4.2, and cursor paging ({@code ?start=}, {@code count} null). */
    V4_6("4.6", true, true, true);

    final String api;
    final boolean macObjects;
    final boolean cursor;
    final boolean fieldsParameter;

    Version(String api, boolean macObjects, boolean cursor, boolean fieldsParameter) {
      this.api = api;
      this.macObjects = macObjects;
      this.cursor = cursor;
      this.fieldsParameter = fieldsParameter;
    }
  }

  /** Where NetBox thinks it lives: the host of its next links (bamel must not go there). */
  static final String SEEN_AS = "http://192.0.2.10";

  public static final String TOKEN = "0123456789abcdef0123456789abcdef01234567";

  final WireMockServer server;
  final Version version;

  /** Boot MACs (eno1) that differ from {@link #mac(long, int)}: a MAC two devices share. */
  final java.util.Map<Long, String> bootMacs = new java.util.HashMap<>();

  /** Device pages (by index from 0) answered only after this many milliseconds. */
  final java.util.Map<Integer, Integer> pageDelayMillis = new java.util.HashMap<>();

  public FakeNetBox(Version version) {
    this.version = version;
    this.server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    server.start();
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  // ------------------------------------------------------------------ the objects

  /** Device {@code id} as NetBox's DeviceSerializer writes it. */
  ObjectNode device(long id) {
    ObjectNode d = Codec.mapper().createObjectNode();
    String name = String.format(Locale.ROOT, "r%02d-u%03d", id / 40, id % 40);
    d.put("id", id);
    d.put("url", SEEN_AS + "/api/dcim/devices/" + id + "/");
    if (version != Version.V3_7) {
      d.put("display_url", SEEN_AS + "/dcim/devices/" + id + "/");
    }
    d.put("display", name);
    d.put("name", name);
    ObjectNode type = d.putObject("device_type");
    type.put("id", 3).put("url", SEEN_AS + "/api/dcim/device-types/3/").put("display", "R650");
    type.putObject("manufacturer")
        .put("id", 1)
        .put("url", SEEN_AS + "/api/dcim/manufacturers/1/")
        .put("display", "Dell")
        .put("name", "Dell")
        .put("slug", "dell");
    type.put("model", "PowerEdge R650").put("slug", "poweredge-r650");
    ObjectNode role = nested(SEEN_AS + "/api/dcim/device-roles/2/", 2, "Server", "server");
    d.set("role", role);
    if (version == Version.V3_7) {
      d.set("device_role", role.deepCopy());
    }
    d.putNull("tenant");
    d.putNull("platform");
    d.put("serial", String.format(Locale.ROOT, "SN%06d", id));
    d.putNull("asset_tag");
    d.set("site", nested(SEEN_AS + "/api/dcim/sites/1/", 1, "Amsterdam 1", "ams1"));
    d.putNull("location");
    ObjectNode rack = d.putObject("rack");
    rack.put("id", 100 + id / 40)
        .put("url", SEEN_AS + "/api/dcim/racks/" + (100 + id / 40) + "/")
        .put("display", "R" + id / 40)
        .put("name", "R" + id / 40);
    d.put("position", (double) (id % 40 + 1));
    d.putObject("face").put("value", "front").put("label", "Front");
    d.putNull("latitude");
    d.putNull("longitude");
    d.putNull("parent_device");
    d.putObject("status").put("value", "active").put("label", "Active");
    d.putNull("airflow");
    d.putNull("primary_ip");
    d.putNull("primary_ip4");
    d.putNull("primary_ip6");
    d.set("oob_ip", oobIp(id));
    d.putNull("cluster");
    d.putNull("virtual_chassis");
    d.putNull("vc_position");
    d.putNull("vc_priority");
    d.put("description", "");
    d.put("comments", "");
    d.putNull("config_template");
    d.putNull("local_context_data");
    d.putArray("tags");
    ObjectNode cf = d.putObject("custom_fields");
    cf.put("bamel_pool", "compute");
    cf.putNull("bamel_power");
    cf.putNull("bamel_state");
    d.put("created", "2024-03-01T09:00:00.000000Z");
    d.put("last_updated", "2024-03-01T09:00:00.123456Z");
    d.put("console_port_count", 1);
    d.put("interface_count", 3);
    return d;
  }

  private static ObjectNode oobIp(long id) {
    ObjectNode ip = Codec.mapper().createObjectNode();
    ip.put("id", 5000 + id);
    ip.put("url", SEEN_AS + "/api/ipam/ip-addresses/" + (5000 + id) + "/");
    ip.put("display", address(id));
    ip.putObject("family").put("value", 6).put("label", "IPv6");
    ip.put("address", address(id));
    ip.put("description", "");
    return ip;
  }

  /** The OOB address of device {@code id}, in the documentation prefix 2001:db8::/32. */
  static String address(long id) {
    return "2001:db8::" + Long.toHexString(id) + "/64";
  }

  private static ObjectNode nested(String url, long id, String name, String slug) {
    ObjectNode n = Codec.mapper().createObjectNode();
    n.put("id", id).put("url", url).put("display", name).put("name", name).put("slug", slug);
    n.put("description", "");
    return n;
  }

  /** The MAC of device {@code id}'s interface {@code port}. */
  public static String mac(long id, int port) {
    return String.format(
        Locale.ROOT,
        "52:54:%02X:%02X:%02X:%02X",
        port,
        (id >> 16) & 0xff,
        (id >> 8) & 0xff,
        id & 0xff);
  }

  /**
   * Device {@code id}'s interfaces as NetBox lists them with {@code mgmt_only=false}: eno1 and
   * eno2, each with a MAC (eno1's is the boot MAC). The BMC port is {@code mgmt_only} and filtered
   * out by NetBox.
   */
  List<ObjectNode> interfaces(long id) {
    List<ObjectNode> out = new ArrayList<>();
    for (int port = 1; port <= 2; port++) {
      String m = port == 1 ? bootMacs.getOrDefault(id, mac(id, port)) : mac(id, port);
      out.add(iface(id, 10 * id + port, "eno" + port, m, false));
    }
    return out;
  }

  /** One interface in NetBox's InterfaceSerializer shape for this version. */
  ObjectNode iface(long device, long id, String name, String mac, boolean mgmtOnly) {
    ObjectNode i = Codec.mapper().createObjectNode();
    i.put("id", id);
    i.put("url", SEEN_AS + "/api/dcim/interfaces/" + id + "/");
    if (version != Version.V3_7) {
      i.put("display_url", SEEN_AS + "/dcim/interfaces/" + id + "/");
    }
    i.put("display", name);
    ObjectNode dev = i.putObject("device");
    dev.put("id", device)
        .put("url", SEEN_AS + "/api/dcim/devices/" + device + "/")
        .put("display", "d" + device)
        .put("name", "d" + device)
        .put("description", "");
    i.putArray("vdcs");
    i.putNull("module");
    i.put("name", name);
    i.put("label", "");
    i.putObject("type").put("value", "25gbase-x-sfp28").put("label", "SFP28 (25GE)");
    i.put("enabled", true);
    i.putNull("parent");
    i.putNull("bridge");
    i.putNull("lag");
    i.putNull("mtu");
    i.put("mac_address", mac);
    if (version.macObjects) {
      if (mac == null) {
        i.putNull("primary_mac_address");
        i.putArray("mac_addresses");
      } else {
        ObjectNode m = i.putObject("primary_mac_address");
        m.put("id", 90_000 + id)
            .put("url", SEEN_AS + "/api/dcim/mac-addresses/" + (90_000 + id) + "/")
            .put("display", mac)
            .put("mac_address", mac)
            .put("description", "");
        i.putArray("mac_addresses").add(m.deepCopy());
      }
    }
    i.putNull("speed");
    i.putNull("duplex");
    i.putNull("wwn");
    i.put("mgmt_only", mgmtOnly);
    i.put("description", "");
    i.putNull("mode");
    i.putArray("tagged_vlans");
    i.put("mark_connected", false);
    i.putNull("cable");
    i.putArray("tags");
    i.putObject("custom_fields");
    i.put("created", "2024-03-01T09:00:00.000000Z");
    i.put("last_updated", "2024-03-01T09:00:00.000000Z");
    i.put("count_ipaddresses", 0);
    i.put("count_fhrp_groups", 0);
    i.put("_occupied", false);
    return i;
  }

  // ------------------------------------------------------------------ serving them

  /** Serves {@code devices} (in id order) in pages of {@code pageSize}, and their interfaces. */
  public void serve(List<ObjectNode> devices, int pageSize) {
    serveDevices(devices, pageSize);
    serveInterfaces(devices);
    servePruneChecks();
  }

  void serveDevices(List<ObjectNode> devices, int pageSize) {
    int pages = Math.max(1, (devices.size() + pageSize - 1) / pageSize);
    long start = 1;
    for (int p = 0; p < pages; p++) {
      List<ObjectNode> page =
          devices.subList(p * pageSize, Math.min(devices.size(), (p + 1) * pageSize));
      ObjectNode body = Codec.mapper().createObjectNode();
      String query =
          "exclude=config_context&fields="
              + URLEncoder.encode(String.join(",", DEVICE_FIELDS), StandardCharsets.UTF_8)
              + "&limit="
              + pageSize;
      if (version.cursor) {
        body.putNull("count");
        boolean last = p == pages - 1;
        if (last) {
          body.putNull("next");
        } else {
          long nextStart = page.get(page.size() - 1).get("id").asLong() + 1;
          body.put("next", SEEN_AS + "/api/dcim/devices/?" + query + "&start=" + nextStart);
        }
        body.putNull("previous");
      } else {
        body.put("count", devices.size());
        if (p == pages - 1) {
          body.putNull("next");
        } else {
          body.put(
              "next",
              SEEN_AS
                  + "/api/dcim/devices/?"
                  + query
                  + "&offset="
                  + (p + 1) * pageSize
                  + "&start=1");
        }
        if (p == 0) {
          body.putNull("previous");
        } else {
          body.put(
              "previous",
              SEEN_AS
                  + "/api/dcim/devices/?"
                  + query
                  + "&offset="
                  + (p - 1) * pageSize
                  + "&start=1");
        }
      }
      ArrayNode results = body.putArray("results");
      // Copies: the caller's devices stay whole (the benchmark posts them to the sync as well).
      page.forEach(
          d -> results.add(version.fieldsParameter ? d.deepCopy().retain(DEVICE_FIELDS) : d));
      Integer delay = pageDelayMillis.get(p);
      stubFor(
          devicePage(p, start, pageSize),
          delay == null ? ok(body) : ok(body).withFixedDelay(delay));
      start = page.isEmpty() ? start : page.get(page.size() - 1).get("id").asLong() + 1;
    }
  }

  /**
   * The request for page {@code p}: by its offset, or with cursor paging by its {@code start} (the
   * previous page's last id + 1).
   */
  MappingBuilder devicePage(int p, long start, int pageSize) {
    // Any limit asked for: NetBox caps it at its MAX_PAGE_SIZE, which the page size here plays.
    MappingBuilder m = get(urlPathEqualTo("/api/dcim/devices/")).withQueryParam("brief", absent());
    if (version.fieldsParameter) {
      // Trimmed pages answer only the request that names these fields (3.7 ignores the name).
      m = m.withQueryParam("fields", equalTo(String.join(",", DEVICE_FIELDS)));
    }
    if (version.cursor) {
      return m.withQueryParam("start", equalTo(Long.toString(start)));
    }
    return p == 0
        ? m.withQueryParam("offset", absent())
        : m.withQueryParam("offset", equalTo(Integer.toString(p * pageSize)));
  }

  /**
   * The device fields bamel asks for, written here from NetBox's DeviceSerializer rather than taken
   * from bamel; from 4.0 a page renders only these.
   */
  private static final List<String> DEVICE_FIELDS =
      List.of(
          "id",
          "name",
          "serial",
          "asset_tag",
          "site",
          "rack",
          "position",
          "oob_ip",
          "status",
          "last_updated",
          "custom_fields");

  /**
   * The interface fields bamel asks for, written here from NetBox's InterfaceSerializer rather than
   * taken from bamel: a request naming others is not served. From 4.0 NetBox renders only the
   * requested fields that its serializer has (BaseModelSerializer.fields); unknown names are
   * ignored.
   */
  private static final List<String> INTERFACE_FIELDS =
      List.of("id", "device", "mgmt_only", "mac_address", "primary_mac_address", "mac_addresses");

  void serveInterfaces(List<ObjectNode> devices) {
    for (int from = 0; from < devices.size(); from += DevicePull.INTERFACE_CHUNK) {
      List<ObjectNode> chunk =
          devices.subList(from, Math.min(devices.size(), from + DevicePull.INTERFACE_CHUNK));
      ArrayNode results = Codec.mapper().createArrayNode();
      StringBuilder url = new StringBuilder("/api/dcim/interfaces/?");
      for (ObjectNode d : chunk) {
        long id = d.get("id").asLong();
        url.append("device_id=").append(id).append('&');
        interfaces(id).forEach(results::add);
      }
      url.append("mgmt_only=false&fields=")
          .append(URLEncoder.encode(String.join(",", INTERFACE_FIELDS), StandardCharsets.UTF_8))
          .append("&limit=1000");
      if (version.fieldsParameter) {
        results.forEach(i -> ((ObjectNode) i).retain(INTERFACE_FIELDS));
      }
      ObjectNode body = Codec.mapper().createObjectNode();
      body.put("count", results.size());
      body.putNull("next");
      body.putNull("previous");
      body.set("results", results);
      // The exact request: these devices' ids in order, without the BMC ports (mgmt_only), and
      // the fields bamel chooses the boot MAC from (NetBox 3.7 ignores ?fields= and sends all).
      stubFor(get(urlEqualTo(url.toString())), ok(body));
    }
  }

  /** The prune check's {@code ?id=..&brief=1}: none of the asked devices is listed. */
  void servePruneChecks() {
    ObjectNode body = Codec.mapper().createObjectNode();
    body.put("count", 0).putNull("next").putNull("previous").putArray("results");
    stubFor(
        get(urlPathEqualTo("/api/dcim/devices/")).withQueryParam("brief", equalTo("1")), ok(body));
  }

  /** Accepts bulk PATCHes of devices. */
  void acceptPatches() {
    server.stubFor(
        patch(urlPathEqualTo("/api/dcim/devices/"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withHeader("API-Version", version.api)
                    .withBody("[]")));
  }

  void stubFor(
      MappingBuilder m, com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder r) {
    server.stubFor(m.willReturn(r));
  }

  com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder ok(JsonNode body) {
    return aResponse()
        .withStatus(200)
        .withHeader("Content-Type", "application/json")
        .withHeader("API-Version", version.api)
        .withBody(body.toString());
  }

  /** Devices 1..n. */
  public List<ObjectNode> devices(int n) {
    List<ObjectNode> out = new ArrayList<>();
    for (long id = 1; id <= n; id++) {
      out.add(device(id));
    }
    return out;
  }

  @Override
  public void close() {
    server.stop();
  }
}
