package io.bamel.pool;

import java.math.BigDecimal;
import java.util.Map;

/**
 * Kubernetes resource names as the pool controller counts them: {@code cpu} and {@code memory} as
 * they are, GPU device-plugin resources ({@code nvidia.com/gpu}, {@code amd.com/gpu}, {@code
 * gpu.intel.com/i915}) as {@code gpu}, {@code ephemeral-storage} as {@code storage}, anything else
 * (custom extended resources) under its own name. Pure.
 */
public final class KubeResources {

  private KubeResources() {}

  /** The pool-controller name of Kubernetes resource {@code kubeName}. */
  public static String name(String kubeName) {
    return switch (kubeName) {
      case "nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915" -> "gpu";
      case "ephemeral-storage" -> "storage";
      default -> kubeName;
    };
  }

  /** Kubernetes amounts (base units) as {@link Resources}, names mapped by {@link #name}. */
  public static Resources of(Map<String, BigDecimal> amounts) {
    if (amounts.isEmpty()) {
      return Resources.NONE;
    }
    return Resources.mapped(amounts, KubeResources::name);
  }
}
