package io.bamel.inventory.store;

/**
 * A parsed etcd key: its kind and the node id, pool name and event sequence it names (null or 0
 * where the kind has none).
 */
public record KeyRef(Kind kind, String id, String pool, long seq) {

  /** A key outside the schema. */
  public static final KeyRef OTHER = new KeyRef(Kind.OTHER, null, null, 0);

  /** The kinds of key in the schema. */
  public enum Kind {
    /** {@code nodes/{id}/spec}. */
    NODE_SPEC,
    /** {@code nodes/{id}/status}. */
    NODE_STATUS,
    /** {@code nodes/{id}/metrics}. */
    NODE_READINGS,
    /** {@code events/{id}/{seq}}. */
    NODE_EVENT,
    /** {@code pools/{pool}/config}. */
    POOL_CONFIG,
    /** {@code pools/{pool}/status}. */
    POOL_STATUS,
    /** {@code pools/{pool}/history}: kept by the pool controller; the cache ignores it. */
    POOL_HISTORY,
    /** {@code pools/{pool}/members/{id}}. */
    POOL_MEMBER,
    /** {@code global/config}. */
    GLOBAL_CONFIG,
    /** {@code global/stats}. */
    GLOBAL_STATS,
    /** {@code leader/{component}}. */
    LEADER,
    /** {@code index/{serial|mac|mgmt}/{value}}: the unique-field index (holds a node id). */
    INDEX,
    /** Anything else. */
    OTHER
  }
}
