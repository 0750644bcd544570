package io.bamel.inventory.cluster;

import java.util.List;

/**
 * One requirement of a node selector term of a pod's required node affinity, as Kubernetes writes
 * it: a {@code matchExpressions} entry on a node label, or a {@code matchFields} entry on a node
 * field (its key is then the field name, such as {@code metadata.name}).
 *
 * @param key the node label (or field) it constrains
 * @param operator {@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}, {@code Gt} or
 *     {@code Lt}, as given
 * @param values its values; empty for {@code Exists} and {@code DoesNotExist}
 */
public record NodeRequirement(String key, String operator, List<String> values) {

  /** Copies the values; null reads as none. */
  public NodeRequirement {
    values = values == null ? List.of() : List.copyOf(values);
  }

  /** A requirement on the pool label {@link Cluster#POOL_LABEL}. */
  public static NodeRequirement pool(String operator, String... values) {
    return new NodeRequirement(Cluster.POOL_LABEL, operator, List.of(values));
  }
}
