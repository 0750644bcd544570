package io.bamel.node;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.NodeTimeouts;
import java.time.Instant;
import java.util.Map;

/**
 * Everything the state machine decides from, gathered by the controller.
 *
 * @param spec the node's spec (desired power, maintenance, boot profile, pool)
 * @param specRevision the spec's mod revision (recorded as {@code observedSpecRevision})
 * @param status the stored status, or null when the controller has written none yet
 * @param power what the BMC said
 * @param kube what Kubernetes showed
 * @param timeouts the node's step timeouts (pool, else global, else defaults), all set
 * @param poolLabels the labels the node's pool puts on its Kubernetes nodes
 * @param now the time of the decision
 */
public record Observation(
    NodeSpec spec,
    long specRevision,
    NodeStatus status,
    PowerReading power,
    KubeView kube,
    NodeTimeouts timeouts,
    Map<String, String> poolLabels,
    Instant now) {

  /** Copies the labels. */
  public Observation {
    poolLabels = poolLabels == null ? Map.of() : Map.copyOf(poolLabels);
  }

  /** This observation with {@code kube} in place of what Kubernetes showed. */
  public Observation withKube(KubeView kube) {
    return new Observation(spec, specRevision, status, power, kube, timeouts, poolLabels, now);
  }
}
