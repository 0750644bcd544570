package io.bamel.inventory.cluster;

import java.util.Objects;

/**
 * A pod's namespace and name.
 *
 * @param namespace the namespace
 * @param name the pod name
 */
public record PodRef(String namespace, String name) {

  /** Checks that both are given. */
  public PodRef {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
