package io.bamel.pool.simulate;

import java.util.Objects;

/**
 * An autoscaler under another name, optionally with {@link Overprovisioning} placeholders in its
 * cluster: one point of a policy family's sweep ({@link FrontierSweep}), its decisions the wrapped
 * autoscaler's unchanged.
 */
public final class Variant implements Autoscaler {

  private final String name;
  private final Autoscaler inner;
  private final Overprovisioning placeholders;

  /** {@code inner} named {@code name}, with {@code placeholders} in the cluster. */
  public Variant(String name, Autoscaler inner, Overprovisioning placeholders) {
    this.name = Objects.requireNonNull(name, "name");
    this.inner = Objects.requireNonNull(inner, "inner");
    this.placeholders = Objects.requireNonNull(placeholders, "placeholders");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean allOnAtStart() {
    return inner.allOnAtStart();
  }

  @Override
  public Overprovisioning overprovisioning() {
    return placeholders;
  }

  @Override
  public Decision decide(ClusterState state) {
    return inner.decide(state);
  }
}
