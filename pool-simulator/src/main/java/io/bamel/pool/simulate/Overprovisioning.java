package io.bamel.pool.simulate;

import io.bamel.pool.Resources;
import java.util.Objects;

/**
 * Over-provisioning as cluster-autoscaler's FAQ documents it ("How can I configure overprovisioning
 * with Cluster Autoscaler?") and Kubernetes' "Overprovision Node Capacity For A Cluster" task
 * describes it for any node autoscaler: a deployment of pause pods with a priority below every
 * workload's, which reserve room that the autoscaler keeps on. In the {@link Simulator} each of
 * {@code replicas} placeholders requests {@code requests} of pool {@code pool} from the start of
 * the run and never ends. The scheduler binds trace pods first; a trace pod that fits on no Ready
 * server preempts placeholders (on the first server, in id order, where removing some of them makes
 * room) and binds at once, as kube-scheduler's preemption gives a pause pod's room (grace period 0)
 * to a higher-priority pod; the preempted placeholders wait again, so the autoscaler, seeing them
 * unschedulable, switches on a server for them. Placeholders count in the autoscaler's view as any
 * pod (their priority is not below cluster-autoscaler's expendable cutoff, so they scale up and
 * block scale-down like others), draw no power (a pause container runs nothing), and are in no
 * wait, eviction or requested-CPU figure.
 *
 * @param pool the pool the placeholders ask for
 * @param replicas how many placeholders (0: none)
 * @param requests what each requests
 */
public record Overprovisioning(String pool, int replicas, Resources requests) {

  /** No placeholders. */
  public static final Overprovisioning NONE = new Overprovisioning("", 0, Resources.NONE);

  /** Checks the values. */
  public Overprovisioning {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(requests, "requests");
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0");
    }
  }

  /**
   * {@code replicas} placeholders of {@code cores} cores each in the fleet's first pool without
   * GPUs (else its first pool), each asking the same share of a server's memory as of its cores.
   */
  public static Overprovisioning of(Fleet fleet, int replicas, double cores) {
    FleetPool pool =
        fleet.pools().stream().filter(p -> p.gpus() == 0).findFirst().orElse(fleet.pools().get(0));
    double share = cores / pool.cores();
    return new Overprovisioning(
        pool.name(),
        replicas,
        Resources.of("cpu", cores, "memory", pool.capacity().get("memory") * share));
  }
}
