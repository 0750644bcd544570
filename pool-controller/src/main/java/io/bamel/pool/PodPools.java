package io.bamel.pool;

import io.bamel.inventory.cluster.KubePod;

/**
 * Which pool serves a pending pod: a pod selecting {@code bamel.io/pool=<pool>} by node selector or
 * required node affinity is served by that pool (by each, when it allows several); a pod that
 * selects no pool is served by the pools marked {@code default}. Pure.
 */
public final class PodPools {

  private PodPools() {}

  /** Whether pool {@code pool} ({@code defaultPool}: marked default) serves {@code pod}. */
  public static boolean serves(String pool, boolean defaultPool, KubePod pod) {
    if (pod.requiredPools().isEmpty()) {
      return defaultPool;
    }
    return pod.requiredPools().contains(pool);
  }
}
