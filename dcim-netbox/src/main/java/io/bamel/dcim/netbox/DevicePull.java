package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads every device NetBox lists for the filters, then their interfaces.
 *
 * <p>Devices: {@code GET
 * /api/dcim/devices/?limit=<pageSize>&start=1&exclude=config_context&fields=<DEVICE_FIELDS>&<filters>},
 * then each {@code next} link until there is none. A NetBox with cursor paging (4.6 and later)
 * takes {@code start} and answers pages in id order with {@code count} null; an older one ignores
 * {@code start} and pages by offset with a {@code count}. The listing is <em>complete</em> only
 * when every page was read and the pages agree: no device twice, ids rising (cursor), and, with
 * offsets, the count the same on every page and equal to the devices read (a device added or
 * deleted in NetBox during the pull shifts the offsets, so such a pull is incomplete and the next
 * one decides). A failed page ends the listing, incomplete, with what was read so far.
 *
 * <p>Interfaces: {@code GET
 * /api/dcim/interfaces/?device_id=..&device_id=..&mgmt_only=false&fields=<INTERFACE_FIELDS>}, a
 * hundred devices per request, following {@code next}, each requested as soon as its devices' page
 * was read ({@link InterfaceReads}). A request that fails leaves those devices' MACs unknown (bamel
 * keeps theirs) and is reported; it does not make the device listing incomplete.
 */
final class DevicePull {

  static final int INTERFACE_CHUNK = 100;

  /**
   * Interface requests in flight at once: NetBox serves requests in parallel (its WSGI workers),
   * and pynetbox's {@code threading=True} fetches pages concurrently the same way; a pull of 10,000
   * devices is 100 requests, each a round trip that need not wait for the one before. The device
   * listing's own request runs beside them, so a pull has at most five requests in flight.
   */
  static final int INTERFACE_REQUESTS_AT_ONCE = 4;

  private static final int MAX_PAGES = 100_000;

  /**
   * The device fields a pull maps ({@link NetBoxDevices#item}) and reports back ({@link
   * ReportBackPlan}). NetBox 4.0 and later render only these ({@code ?fields=}), less than half of
   * a device, without looking up the related objects of the fields left out. A name a version does
   * not have is ignored; NetBox 3.7 ignores the parameter and sends whole devices, which map the
   * same. A field the mapping starts to read must be added here (a test maps whole and trimmed
   * devices and compares).
   */
  static final String DEVICE_FIELDS =
      "id,name,serial,asset_tag,site,rack,position,oob_ip,status,last_updated,custom_fields";

  /**
   * The interface fields the boot MAC is chosen from ({@link BootMacs}) and the device they belong
   * to. NetBox 4.0 and later render only these ({@code ?fields=}): about a third of the full
   * interface, and NetBox skips the lookups of the fields left out. A name a version does not have
   * is ignored (4.0 and 4.1 have no MAC-address objects), and NetBox 3.7 ignores the parameter and
   * sends whole interfaces, which read the same.
   */
  static final String INTERFACE_FIELDS =
      "id,device,mgmt_only,mac_address,primary_mac_address,mac_addresses";

  /**
   * What a pull read.
   *
   * @param devices the devices in NetBox's order
   * @param interfaces each device's interfaces, for the devices whose interfaces were read
   * @param complete whether the device listing is complete (see the class comment)
   * @param paging {@code cursor} or {@code offset}
   * @param apiVersion NetBox's {@code API-Version} header, or null
   * @param errors what went wrong, for a person
   */
  record Result(
      List<JsonNode> devices,
      Map<Long, List<JsonNode>> interfaces,
      boolean complete,
      String paging,
      String apiVersion,
      List<String> errors) {}

  private DevicePull() {}

  static Result run(NetBoxClient client, NetBoxFilters filters, int pageSize) {
    try (InterfaceReads interfaces = new InterfaceReads(client)) {
      return run(client, filters, pageSize, interfaces);
    }
  }

  private static Result run(
      NetBoxClient client, NetBoxFilters filters, int pageSize, InterfaceReads interfaces) {
    List<String> errors = new ArrayList<>();
    List<JsonNode> devices = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    List<Map.Entry<String, String>> query = new ArrayList<>();
    query.add(Map.entry("limit", Integer.toString(pageSize)));
    query.add(Map.entry("start", "1"));
    query.add(Map.entry("exclude", "config_context"));
    query.add(Map.entry("fields", DEVICE_FIELDS));
    query.addAll(filters.query());
    String path = NetBoxClient.path("/api/dcim/devices/", query);
    Long count = null;
    boolean cursor = false;
    boolean complete = false;
    String apiVersion = null;
    long lastId = 0;
    try {
      for (int page = 0; path != null; page++) {
        if (page >= MAX_PAGES) {
          throw new NetBoxException("NetBox's device list did not end after " + page + " pages", 0);
        }
        NetBoxClient.Answer answer = client.get(path);
        JsonNode body = answer.body();
        if (!body.path("results").isArray()) {
          throw new NetBoxException(path + ": NetBox's answer is not a device list", 0);
        }
        if (page == 0) {
          apiVersion = answer.apiVersion();
          cursor = !body.path("count").canConvertToLong();
          count = cursor ? null : body.get("count").asLong();
        } else if (!cursor) {
          long now = body.path("count").asLong(-1);
          if (now != count) {
            errors.add(
                "NetBox's device count changed from "
                    + count
                    + " to "
                    + now
                    + " during the pull; nothing is pruned, the next pull decides");
            return result(devices, interfaces, errors, false, cursor, apiVersion);
          }
        }
        for (JsonNode d : body.get("results")) {
          long id = d.path("id").asLong(0);
          if (!seen.add(id) || (cursor && id <= lastId)) {
            errors.add(
                "NetBox listed device "
                    + id
                    + " twice or out of order: its list changed during the pull; nothing is"
                    + " pruned, the next pull decides");
            return result(devices, interfaces, errors, false, cursor, apiVersion);
          }
          lastId = id;
          devices.add(d);
          interfaces.add(id);
        }
        JsonNode next = body.get("next");
        path =
            next == null || next.isNull() || next.asText().isEmpty()
                ? null
                : client.relative(next.asText());
      }
      complete = cursor || devices.size() == count;
      if (!complete) {
        errors.add(
            "NetBox's count says "
                + count
                + " devices but its pages held "
                + devices.size()
                + "; nothing is pruned, the next pull decides");
      }
    } catch (NetBoxException e) {
      errors.add(
          "the device list stopped after "
              + devices.size()
              + " devices: "
              + e.getMessage()
              + "; nothing is pruned");
      complete = false;
    }
    return result(devices, interfaces, errors, complete, cursor, apiVersion);
  }

  private static Result result(
      List<JsonNode> devices,
      InterfaceReads reads,
      List<String> errors,
      boolean complete,
      boolean cursor,
      String apiVersion) {
    Map<Long, List<JsonNode>> interfaces = reads.collect(errors);
    return new Result(
        List.copyOf(devices),
        interfaces,
        complete,
        cursor ? "cursor" : "offset",
        apiVersion,
        List.copyOf(errors));
  }

  /** The interfaces of the devices {@code ids}, every one of them present (maybe empty). */
  static Map<Long, List<JsonNode>> interfacesOf(NetBoxClient client, List<Long> ids) {
    Map<Long, List<JsonNode>> byDevice = new LinkedHashMap<>();
    List<Map.Entry<String, String>> query = new ArrayList<>();
    for (long id : ids) {
      byDevice.put(id, new ArrayList<>());
      query.add(Map.entry("device_id", Long.toString(id)));
    }
    query.add(Map.entry("mgmt_only", "false"));
    query.add(Map.entry("fields", INTERFACE_FIELDS));
    query.add(Map.entry("limit", "1000"));
    String path = NetBoxClient.path("/api/dcim/interfaces/", query);
    Set<Long> seen = new HashSet<>();
    for (int page = 0; path != null; page++) {
      if (page >= MAX_PAGES) {
        throw new NetBoxException("NetBox's interface list did not end", 0);
      }
      JsonNode body = client.get(path).body();
      if (!body.path("results").isArray()) {
        throw new NetBoxException("NetBox's answer is not an interface list", 0);
      }
      for (JsonNode i : body.get("results")) {
        long device = i.path("device").path("id").asLong(0);
        if (seen.add(i.path("id").asLong(0)) && byDevice.containsKey(device)) {
          byDevice.get(device).add(i);
        }
      }
      JsonNode next = body.get("next");
      path =
          next == null || next.isNull() || next.asText().isEmpty()
              ? null
              : client.relative(next.asText());
    }
    return byDevice;
  }
}
