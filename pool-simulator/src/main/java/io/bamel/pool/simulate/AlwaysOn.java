package io.bamel.pool.simulate;

/** Every server on all the time: the cluster as it runs without any autoscaler. */
public final class AlwaysOn implements Autoscaler {

  @Override
  public String name() {
    return "always-on";
  }

  @Override
  public boolean allOnAtStart() {
    return true;
  }

  @Override
  public Decision decide(ClusterState state) {
    return Decision.NONE;
  }
}
