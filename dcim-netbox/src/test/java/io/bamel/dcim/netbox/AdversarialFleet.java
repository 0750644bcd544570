package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.store.Codec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * NetBox-shaped devices with the identity hazards real fleets have, in the shapes of NetBox's own
 * DeviceSerializer (from {@link FakeNetBox#device}: nested site, rack, device type and role
 * objects, nulls, a decimal {@code position}, {@code oob_ip} and {@code primary_ip4} objects, 4.x
 * MAC objects on the interfaces), and webhook bodies as NetBox 4.x's event rules send them ({@code
 * object_type}, {@code request_id}, {@code data}, and {@code snapshots} of the object before and
 * after). The mix: names shared by devices of other sites, names that differ only in case ({@code
 * spare-01}, {@code Spare-01}), non-ASCII and empty names, placeholder serials, and pairs that
 * collide: a real serial or a boot MAC that two devices share. The generator knows which device of
 * each pair must lose (the higher id): that is the oracle the tests check bamel's conflicts
 * against, not bamel's own report.
 */
final class AdversarialFleet {

  static final List<String> PLACEHOLDERS =
      List.of(
          "To be filled by O.E.M.",
          " TO BE FILLED BY O.E.M. ",
          "Default string",
          "System Serial Number",
          "Not Specified",
          "0123456789",
          "N/A",
          "0",
          "");

  static final List<String> NON_ASCII =
      List.of("节点-%d", "сервер-%d", "ノード・ワン-%d", "Müller-%d", "Ünï-%d", "Straße %d");

  final FakeNetBox netbox;
  final Random random;

  /** The devices, by id (in id order). */
  final Map<Long, ObjectNode> devices = new LinkedHashMap<>();

  /** The devices that must collide: the higher id of each pair sharing a serial or a boot MAC. */
  final Set<Long> colliding = new HashSet<>();

  /** Both devices of every colliding pair. */
  final Set<Long> paired = new HashSet<>();

  private long nextId;
  private long clock = 1_700_000_000_000_000L;

  AdversarialFleet(FakeNetBox netbox, long seed) {
    this.netbox = netbox;
    this.random = new Random(seed);
  }

  /** Adds {@code n} devices with the mix of hazards. */
  AdversarialFleet generate(int n) {
    Set<Long> plain = new HashSet<>();
    for (int i = 0; i < n; i++) {
      long id = ++nextId;
      ObjectNode d = netbox.device(id);
      int roll = random.nextInt(100);
      if (roll < 10) {
        name(d, "edge-gw-" + random.nextInt(40));
        site(d, "site-" + random.nextInt(7));
      } else if (roll < 14) {
        int k = random.nextInt(30);
        name(d, String.format(Locale.ROOT, random.nextBoolean() ? "spare-%02d" : "Spare-%02d", k));
      } else if (roll < 19) {
        name(d, String.format(NON_ASCII.get(random.nextInt(NON_ASCII.size())), random.nextInt(50)));
      } else if (roll < 22) {
        if (random.nextBoolean()) {
          d.putNull("name");
          d.putNull("display");
        } else {
          name(d, "");
        }
      }
      int serialRoll = random.nextInt(100);
      if (serialRoll < 12) {
        d.put("serial", PLACEHOLDERS.get(random.nextInt(PLACEHOLDERS.size())));
      } else {
        plain.add(id);
      }
      if (random.nextInt(4) == 0) {
        d.put("position", 10.5 + random.nextInt(30));
      }
      if (random.nextInt(3) == 0) {
        ObjectNode ip = d.putObject("primary_ip4");
        ip.put("id", 700_000 + id)
            .put("url", FakeNetBox.SEEN_AS + "/api/ipam/ip-addresses/" + (700_000 + id) + "/")
            .put("display", "192.0.2." + (id % 250) + "/24")
            .put("address", "192.0.2." + (id % 250) + "/24")
            .put("description", "");
        ip.putObject("family").put("value", 4).put("label", "IPv4");
        d.set("primary_ip", ip.deepCopy());
      }
      if (random.nextInt(20) == 0) {
        d.putNull("oob_ip");
      }
      d.put("last_updated", time(tick()));
      devices.put(id, d);
    }
    collide(new ArrayList<>(plain), n / 100);
    return this;
  }

  /** {@code pairs} pairs of distinct plain devices, half sharing a serial, half a boot MAC. */
  private void collide(List<Long> plain, int pairs) {
    plain.sort(Comparator.naturalOrder());
    java.util.Collections.shuffle(plain, random);
    for (int p = 0; p < pairs && 2 * p + 1 < plain.size(); p++) {
      long a = Math.min(plain.get(2 * p), plain.get(2 * p + 1));
      long b = Math.max(plain.get(2 * p), plain.get(2 * p + 1));
      if (p % 2 == 0) {
        devices.get(b).put("serial", devices.get(a).get("serial").asText());
      } else {
        netbox.bootMacs.put(b, FakeNetBox.mac(a, 1));
      }
      colliding.add(b);
      paired.add(a);
      paired.add(b);
    }
  }

  /** The devices in id order (NetBox 4.6's cursor paging). */
  List<ObjectNode> byId() {
    return new ArrayList<>(devices.values());
  }

  /** The devices in NetBox's name order up to 4.5 ({@code _name} natural order, then id). */
  List<ObjectNode> byName() {
    List<ObjectNode> out = byId();
    out.sort(
        Comparator.comparing((ObjectNode d) -> d.path("name").asText(""))
            .thenComparingLong(d -> d.get("id").asLong()));
    return out;
  }

  /** The devices in a random order (an offset listing is any order the sort gives). */
  List<ObjectNode> shuffled(Random r) {
    List<ObjectNode> out = byId();
    java.util.Collections.shuffle(out, r);
    return out;
  }

  /** A device record one step later: renamed, moved to another site, or both. */
  ObjectNode changed(long id) {
    ObjectNode d = devices.get(id).deepCopy();
    switch (random.nextInt(3)) {
      case 0 -> name(d, "renamed-" + id);
      case 1 -> site(d, "site-" + random.nextInt(7));
      default -> {
        List<ObjectNode> all = byId();
        name(d, all.get(random.nextInt(all.size())).path("name").asText("x"));
        site(d, "site-" + random.nextInt(7));
      }
    }
    d.put("last_updated", time(tick()));
    return d;
  }

  /** Device {@code id} re-created under a new id: same name, serial and OOB IP. */
  ObjectNode recreated(long id) {
    ObjectNode old = devices.get(id);
    long fresh = ++nextId;
    ObjectNode d = old.deepCopy();
    d.put("id", fresh);
    d.put("url", FakeNetBox.SEEN_AS + "/api/dcim/devices/" + fresh + "/");
    d.put("last_updated", time(tick()));
    return d;
  }

  /** A NetBox webhook body for {@code device}, with NetBox's {@code snapshots}. */
  static byte[] webhook(String event, JsonNode device, JsonNode before, String requestId) {
    ObjectNode body = Codec.mapper().createObjectNode();
    body.put("event", event);
    body.put("timestamp", device.path("last_updated").asText());
    body.put("object_type", "dcim.device"); // NetBox 4.x; 3.x named it "model": "device"
    body.put("username", "jdoe");
    body.put("request_id", requestId);
    body.set("data", device);
    ObjectNode snapshots = body.putObject("snapshots");
    if (before == null) {
      snapshots.putNull("prechange");
    } else {
      snapshots.set("prechange", snapshot(before));
    }
    if (event.equals("deleted")) {
      snapshots.putNull("postchange");
    } else {
      snapshots.set("postchange", snapshot(device));
    }
    return body.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** NetBox's serialize_object of a device: flat fields, related objects as their ids. */
  private static ObjectNode snapshot(JsonNode d) {
    ObjectNode s = Codec.mapper().createObjectNode();
    s.set("name", d.get("name"));
    s.set("serial", d.get("serial"));
    s.put("site", d.path("site").path("id").asLong());
    s.put("rack", d.path("rack").path("id").asLong());
    s.set("position", d.get("position"));
    s.put("status", d.path("status").path("value").asText());
    s.set("custom_fields", d.get("custom_fields"));
    s.putArray("tags");
    return s;
  }

  private long tick() {
    clock += 1_000 + random.nextInt(1_000_000);
    return clock;
  }

  static String time(long micros) {
    java.time.Instant t =
        java.time.Instant.ofEpochSecond(micros / 1_000_000, micros % 1_000_000 * 1000);
    return java.time.format.DateTimeFormatter.ISO_INSTANT.format(t).replace("Z", "") + "Z";
  }

  private static void name(ObjectNode d, String name) {
    d.put("name", name);
    d.put("display", name);
  }

  private static void site(ObjectNode d, String slug) {
    int n = Integer.parseInt(slug.substring(slug.indexOf('-') + 1));
    ObjectNode s = d.putObject("site");
    s.put("id", 10 + n)
        .put("url", FakeNetBox.SEEN_AS + "/api/dcim/sites/" + (10 + n) + "/")
        .put("display", "Site " + n)
        .put("name", "Site " + n)
        .put("slug", slug)
        .put("description", "");
  }
}
