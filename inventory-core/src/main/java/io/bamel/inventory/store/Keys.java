package io.bamel.inventory.store;

import io.bamel.inventory.model.Ids;
import io.bamel.inventory.model.MacAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * The etcd schema, in one place. Every key bamel reads or writes is built here, from ids that have
 * been validated ({@link Ids}), so no {@code /} or {@code ..} from input reaches etcd.
 *
 * <pre>
 * /baremetal/nodes/{id}/spec            NodeSpec
 * /baremetal/nodes/{id}/status          NodeStatus
 * /baremetal/nodes/{id}/metrics         NodeReadings
 * /baremetal/events/{id}/{seq}          NodeEvent (seq zero-padded to 16 digits)
 * /baremetal/pools/{pool}/config        PoolConfig
 * /baremetal/pools/{pool}/members/{id}  "" (index of spec.pool)
 * /baremetal/pools/{pool}/status        PoolStatus
 * /baremetal/pools/{pool}/history       the pool's demand history (JSON of the pool controller)
 * /baremetal/global/config              global settings
 * /baremetal/global/stats               fleet-wide figures
 * /baremetal/leader/{component}         leader election
 * /baremetal/replicas/{instance}        a live bamel server (under its lease; the hash ring)
 * /baremetal/index/serial/{b64(serial)} node id (unique index of spec.serial)
 * /baremetal/index/mac/{mac}            node id (unique index of spec.macAddress)
 * /baremetal/index/mgmt/{b64(address)}  node id (unique index of spec.mgmtAddress)
 * </pre>
 *
 * <p>Serials and management addresses are free text, so their index segment is the URL-safe base64
 * (no padding) of their UTF-8 bytes; a MAC address is its canonical lower-case form.
 *
 * <p>Events live beside the nodes rather than under them so that listing {@code /baremetal/nodes/}
 * reads at most three small keys per node, however long its history; see docs/etcd-schema.md.
 */
public final class Keys {

  /** The root of everything bamel stores. */
  public static final String ROOT = "/baremetal/";

  /** The prefix of every node key. */
  public static final String NODES = ROOT + "nodes/";

  /** The prefix of every event key. */
  public static final String EVENTS = ROOT + "events/";

  /** The prefix of every pool key. */
  public static final String POOLS = ROOT + "pools/";

  /** Global settings. */
  public static final String GLOBAL_CONFIG = ROOT + "global/config";

  /** Fleet-wide figures. */
  public static final String GLOBAL_STATS = ROOT + "global/stats";

  /** The prefix of leader-election keys. */
  public static final String LEADER = ROOT + "leader/";

  /** The prefix of the live-replica keys (each under its server's lease). */
  public static final String REPLICAS = ROOT + "replicas/";

  /** The prefix of the unique-field index keys. */
  public static final String INDEX = ROOT + "index/";

  static final String SERIAL = "serial";
  static final String MAC = "mac";
  static final String MGMT = "mgmt";
  static final String SPEC = "spec";
  static final String STATUS = "status";
  static final String METRICS = "metrics";
  static final String CONFIG = "config";
  static final String MEMBERS = "members";
  static final String HISTORY = "history";
  private static final int SEQ_DIGITS = 16;
  private static final String ZEROS = "0".repeat(SEQ_DIGITS);

  private Keys() {}

  /** {@code /baremetal/nodes/{id}/}: the prefix of one node's keys. */
  public static String node(String id) {
    return NODES + Ids.require("id", id) + "/";
  }

  /** {@code /baremetal/nodes/{id}/spec}. */
  public static String nodeSpec(String id) {
    return node(id) + SPEC;
  }

  /** {@code /baremetal/nodes/{id}/status}. */
  public static String nodeStatus(String id) {
    return node(id) + STATUS;
  }

  /** {@code /baremetal/nodes/{id}/metrics}. */
  public static String nodeReadings(String id) {
    return node(id) + METRICS;
  }

  /** {@code /baremetal/events/{id}/}: the prefix of one node's events. */
  public static String nodeEvents(String id) {
    return EVENTS + Ids.require("id", id) + "/";
  }

  /** {@code /baremetal/events/{id}/{seq}}, with {@code seq} zero-padded so keys sort by seq. */
  public static String nodeEvent(String id, long seq) {
    String digits = Long.toString(seq);
    if (seq < 0 || digits.length() >= SEQ_DIGITS) {
      return nodeEvents(id) + String.format(Locale.ROOT, "%0" + SEQ_DIGITS + "d", seq);
    }
    return nodeEvents(id) + ZEROS.substring(digits.length()) + digits;
  }

  /** {@code /baremetal/pools/{pool}/}: the prefix of one pool's keys. */
  public static String pool(String pool) {
    return POOLS + Ids.require("pool", pool) + "/";
  }

  /** {@code /baremetal/pools/{pool}/config}. */
  public static String poolConfig(String pool) {
    return pool(pool) + CONFIG;
  }

  /** {@code /baremetal/pools/{pool}/status}. */
  public static String poolStatus(String pool) {
    return pool(pool) + STATUS;
  }

  /**
   * {@code /baremetal/pools/{pool}/history}: the pool's demand history, an opaque value to the
   * store (the pool controller's {@code io.bamel.pool.history.HistoryJson}).
   */
  public static String poolHistory(String pool) {
    return pool(pool) + HISTORY;
  }

  /** {@code /baremetal/pools/{pool}/members/}: the prefix of the pool's member index. */
  public static String poolMembers(String pool) {
    return pool(pool) + MEMBERS + "/";
  }

  /** {@code /baremetal/pools/{pool}/members/{id}}. */
  public static String poolMember(String pool, String id) {
    return poolMembers(pool) + Ids.require("id", id);
  }

  /** {@code /baremetal/leader/{component}}. */
  public static String leader(String component) {
    return LEADER + Ids.require("component", component);
  }

  /** {@code /baremetal/replicas/{instance}}. */
  public static String replica(String instance) {
    return REPLICAS + Ids.require("instance", instance);
  }

  /** {@code /baremetal/index/serial/{value}}: the value URL-safe base64 encoded. */
  public static String indexSerial(String serial) {
    return INDEX + SERIAL + "/" + encode(serial);
  }

  /** {@code /baremetal/index/mac/{value}}: the canonical lower-case MAC address. */
  public static String indexMac(String mac) {
    if (!MacAddress.isValid(mac)) {
      throw new IllegalArgumentException("not a MAC address");
    }
    return INDEX + MAC + "/" + MacAddress.canonical(mac);
  }

  /** {@code /baremetal/index/mgmt/{value}}: the value URL-safe base64 encoded. */
  public static String indexMgmt(String address) {
    return INDEX + MGMT + "/" + encode(address);
  }

  private static String encode(String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("an indexed value must not be empty");
    }
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }

  /** What a key is, parsed back from its text; {@link KeyRef#OTHER} for unknown keys. */
  public static KeyRef parse(String key) {
    if (key.startsWith(NODES)) {
      String[] parts = key.substring(NODES.length()).split("/", -1);
      if (parts.length == 2 && Ids.isValid(parts[0])) {
        KeyRef.Kind kind =
            switch (parts[1]) {
              case SPEC -> KeyRef.Kind.NODE_SPEC;
              case STATUS -> KeyRef.Kind.NODE_STATUS;
              case METRICS -> KeyRef.Kind.NODE_READINGS;
              default -> null;
            };
        if (kind != null) {
          return new KeyRef(kind, parts[0], null, 0);
        }
      }
    } else if (key.startsWith(EVENTS)) {
      String[] parts = key.substring(EVENTS.length()).split("/", -1);
      if (parts.length == 2 && Ids.isValid(parts[0]) && digits(parts[1])) {
        return new KeyRef(KeyRef.Kind.NODE_EVENT, parts[0], null, Long.parseLong(parts[1]));
      }
    } else if (key.startsWith(POOLS)) {
      String[] parts = key.substring(POOLS.length()).split("/", -1);
      if (parts.length == 2 && Ids.isValid(parts[0])) {
        if (parts[1].equals(CONFIG)) {
          return new KeyRef(KeyRef.Kind.POOL_CONFIG, null, parts[0], 0);
        }
        if (parts[1].equals(STATUS)) {
          return new KeyRef(KeyRef.Kind.POOL_STATUS, null, parts[0], 0);
        }
        if (parts[1].equals(HISTORY)) {
          return new KeyRef(KeyRef.Kind.POOL_HISTORY, null, parts[0], 0);
        }
      } else if (parts.length == 3 && parts[1].equals(MEMBERS) && Ids.isValid(parts[0])) {
        if (Ids.isValid(parts[2])) {
          return new KeyRef(KeyRef.Kind.POOL_MEMBER, parts[2], parts[0], 0);
        }
      }
    } else if (key.equals(GLOBAL_CONFIG)) {
      return new KeyRef(KeyRef.Kind.GLOBAL_CONFIG, null, null, 0);
    } else if (key.equals(GLOBAL_STATS)) {
      return new KeyRef(KeyRef.Kind.GLOBAL_STATS, null, null, 0);
    } else if (key.startsWith(INDEX)) {
      String[] parts = key.substring(INDEX.length()).split("/", -1);
      if (parts.length == 2
          && !parts[1].isEmpty()
          && (parts[0].equals(SERIAL) || parts[0].equals(MAC) || parts[0].equals(MGMT))) {
        return new KeyRef(KeyRef.Kind.INDEX, null, null, 0);
      }
    } else if (key.startsWith(LEADER)) {
      return new KeyRef(KeyRef.Kind.LEADER, null, null, 0);
    }
    return KeyRef.OTHER;
  }

  /** One to 19 ASCII digits (an event's sequence number); no regex: every watched event. */
  private static boolean digits(String text) {
    if (text.isEmpty() || text.length() > 19) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * The first key after every key that starts with {@code prefix}: the end of a prefix range, as
   * etcd defines it (the last byte incremented).
   */
  public static String prefixEnd(String prefix) {
    char[] chars = prefix.toCharArray();
    chars[chars.length - 1]++;
    return new String(chars);
  }
}
