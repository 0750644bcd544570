package io.bamel.inventory.api.pools;

import io.bamel.inventory.model.Pool;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import java.util.List;

/**
 * A pool as the API shows it: name, the config's revision (the ETag), config, status and its
 * revision, the member count and, for a single pool, the member ids in order.
 */
public record PoolView(
    String name,
    long revision,
    PoolConfig config,
    PoolStatus status,
    Long statusRevision,
    int memberCount,
    List<String> members) {

  /** The view of a pool; {@code withMembers} lists the member ids. */
  public static PoolView of(Pool pool, boolean withMembers) {
    return new PoolView(
        pool.name(),
        pool.configRevision(),
        pool.config(),
        pool.status(),
        pool.status() == null ? null : pool.statusRevision(),
        pool.members().size(),
        withMembers ? pool.members().stream().sorted().toList() : null);
  }
}
