package io.bamel.kube.testing;

import io.bamel.inventory.cluster.Cluster;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes Pods and Nodes for tests and benchmarks: small defaults and named setters over
 * fabric8's own {@link PodBuilder} and {@link NodeBuilder}, so that a test states only what its
 * objects differ in.
 *
 * <p>A field is set only when a setter asks for it (no empty map, no empty {@code resources}
 * object), so the API server receives exactly the fields named. A pod starts as: namespace {@code
 * apps}, one container {@code c} of image {@code busybox} without resources, phase {@code Running};
 * no owner, labels, node, selector or condition. A node starts as: a {@code Ready=True} condition
 * and nothing else.
 */
public final class KubeObjects {

  private KubeObjects() {}

  /** A pod named {@code name}, with the defaults above. */
  public static PodDraft pod(String name) {
    return new PodDraft(name);
  }

  /** A node named {@code name}, with the defaults above. */
  public static NodeDraft node(String name) {
    return new NodeDraft(name);
  }

  /**
   * Resource quantities from pairs of name and amount ({@code "cpu", 4, "memory", "16Gi"}), in the
   * order given; an amount is written as its {@code toString()}.
   */
  public static Map<String, Quantity> quantities(Object... pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException("pairs of name and amount expected, got " + pairs.length);
    }
    Map<String, Quantity> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], new Quantity(pairs[i + 1].toString()));
    }
    return map;
  }

  /**
   * A {@code policy/v1} PodDisruptionBudget in namespace {@code apps} that selects the pods with
   * these labels and keeps at least {@code minAvailable} of them. It has no status, so {@link
   * KubeApiServer}, which computes none, refuses every eviction of a pod it selects.
   */
  public static PodDisruptionBudget disruptionBudget(
      String name, Map<String, String> matchLabels, int minAvailable) {
    return new PodDisruptionBudgetBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("apps")
        .endMetadata()
        .withNewSpec()
        .withNewSelector()
        .withMatchLabels(matchLabels)
        .endSelector()
        .withMinAvailable(new IntOrString(minAvailable))
        .endSpec()
        .build();
  }

  /** A pod being described; {@link #build()} makes the fabric8 {@link Pod}. */
  public static final class PodDraft {
    private final String name;
    private String namespace = "apps";
    private String resourceVersion;
    private Map<String, String> labels;
    private Map<String, String> annotations;
    private String[] owner;
    private String nodeName;
    private String pool;
    private List<String> requiredPools;
    private boolean container = true;
    private String containerName = "c";
    private String image = "busybox";
    private Map<String, Quantity> requests;
    private String phase = "Running";
    private final List<PodCondition> conditions = new ArrayList<>();

    private PodDraft(String name) {
      this.name = name;
    }

    /** In namespace {@code namespace} (default {@code apps}). */
    public PodDraft namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    /** With {@code metadata.resourceVersion}, as a store's copy of a listed pod has. */
    public PodDraft resourceVersion(String resourceVersion) {
      this.resourceVersion = resourceVersion;
      return this;
    }

    /** With these labels. */
    public PodDraft labels(Map<String, String> labels) {
      this.labels = labels;
      return this;
    }

    /** With these annotations. */
    public PodDraft annotations(Map<String, String> annotations) {
      this.annotations = annotations;
      return this;
    }

    /** Controlled by an {@code apps/v1} {@code kind} named {@code name} with this uid. */
    public PodDraft owner(String kind, String name, String uid) {
      this.owner = new String[] {kind, name, uid};
      return this;
    }

    /** Bound to node {@code nodeName} ({@code spec.nodeName}; null: not bound). */
    public PodDraft onNode(String nodeName) {
      this.nodeName = nodeName;
      return this;
    }

    /**
     * Selecting pool {@code pool} by a node selector on {@link Cluster#POOL_LABEL} (null: none).
     */
    public PodDraft pool(String pool) {
      this.pool = pool;
      return this;
    }

    /** A required node affinity of one term, {@link Cluster#POOL_LABEL} {@code In pools}. */
    public PodDraft requiredPools(List<String> pools) {
      this.requiredPools = pools;
      return this;
    }

    /** Its one container named {@code name} of image {@code image} (null: no image). */
    public PodDraft container(String name, String image) {
      this.containerName = name;
      this.image = image;
      return this;
    }

    /** No container at all (a bare pod as a test writes it; requests are then not written). */
    public PodDraft withoutContainers() {
      this.container = false;
      return this;
    }

    /** Its container requests these quantities (see {@link KubeObjects#quantities}). */
    public PodDraft requests(Object... pairs) {
      this.requests = quantities(pairs);
      return this;
    }

    /** In phase {@code phase} (default {@code Running}). */
    public PodDraft phase(String phase) {
      this.phase = phase;
      return this;
    }

    /** With the condition {@code PodScheduled=True}, as the scheduler writes on binding. */
    public PodDraft scheduled() {
      conditions.add(scheduledCondition("True", null));
      return this;
    }

    /**
     * With the condition {@code PodScheduled=False}, reason {@code Unschedulable}, as the scheduler
     * writes when no node fits; the phase is left as it is.
     */
    public PodDraft unschedulable() {
      conditions.add(scheduledCondition("False", "Unschedulable"));
      return this;
    }

    /** Pending and unschedulable: phase {@code Pending} and {@link #unschedulable()}. */
    public PodDraft pending() {
      return phase("Pending").unschedulable();
    }

    private static PodCondition scheduledCondition(String status, String reason) {
      return new PodConditionBuilder()
          .withType("PodScheduled")
          .withStatus(status)
          .withReason(reason)
          .build();
    }

    /** The fabric8 pod. */
    public Pod build() {
      var metadata =
          new PodBuilder()
              .withNewMetadata()
              .withName(name)
              .withNamespace(namespace)
              .withResourceVersion(resourceVersion);
      if (labels != null) {
        metadata.withLabels(labels);
      }
      if (annotations != null) {
        metadata.withAnnotations(annotations);
      }
      if (owner != null) {
        metadata
            .addNewOwnerReference()
            .withKind(owner[0])
            .withName(owner[1])
            .withApiVersion("apps/v1")
            .withUid(owner[2])
            .withController(true)
            .endOwnerReference();
      }
      var spec = metadata.endMetadata().withNewSpec().withNodeName(nodeName);
      if (pool != null) {
        spec.withNodeSelector(Map.of(Cluster.POOL_LABEL, pool));
      }
      if (requiredPools != null) {
        NodeSelectorTerm inPools =
            new NodeSelectorTermBuilder()
                .addToMatchExpressions(
                    new NodeSelectorRequirement(Cluster.POOL_LABEL, "In", requiredPools))
                .build();
        spec.withAffinity(
            new AffinityBuilder()
                .withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                .withNodeSelectorTerms(inPools)
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity()
                .build());
      }
      if (container) {
        var c = spec.addNewContainer().withName(containerName).withImage(image);
        if (requests != null) {
          c.withNewResources().withRequests(requests).endResources();
        }
        c.endContainer();
      }
      var status = spec.endSpec().withNewStatus().withPhase(phase);
      for (PodCondition condition : conditions) {
        status.addToConditions(condition);
      }
      return status.endStatus().build();
    }
  }

  /** A node being described; {@link #build()} makes the fabric8 {@link Node}. */
  public static final class NodeDraft {
    private final String name;
    private Map<String, String> labels;
    private Map<String, String> annotations;
    private Boolean unschedulable;
    private String systemUuid;
    private boolean ready = true;
    private Map<String, Quantity> allocatable;

    private NodeDraft(String name) {
      this.name = name;
    }

    /** With these labels. */
    public NodeDraft labels(Map<String, String> labels) {
      this.labels = labels;
      return this;
    }

    /** With these annotations. */
    public NodeDraft annotations(Map<String, String> annotations) {
      this.annotations = annotations;
      return this;
    }

    /** With {@code spec.unschedulable} written as given (true: cordoned). */
    public NodeDraft unschedulable(boolean unschedulable) {
      this.unschedulable = unschedulable;
      return this;
    }

    /**
     * Reporting {@code status.nodeInfo.systemUUID}, as a kubelet reads it from the firmware (null:
     * no node info).
     */
    public NodeDraft systemUuid(String systemUuid) {
      this.systemUuid = systemUuid;
      return this;
    }

    /** Its {@code Ready} condition {@code True} (default) or {@code False}. */
    public NodeDraft ready(boolean ready) {
      this.ready = ready;
      return this;
    }

    /** With {@code status.allocatable} of these quantities (see {@link KubeObjects#quantities}). */
    public NodeDraft allocatable(Object... pairs) {
      this.allocatable = quantities(pairs);
      return this;
    }

    /** The fabric8 node. */
    public Node build() {
      var metadata = new NodeBuilder().withNewMetadata().withName(name);
      if (labels != null) {
        metadata.withLabels(labels);
      }
      if (annotations != null) {
        metadata.withAnnotations(annotations);
      }
      NodeBuilder node = metadata.endMetadata();
      if (unschedulable != null) {
        node.withNewSpec().withUnschedulable(unschedulable).endSpec();
      }
      var status = node.withNewStatus();
      if (systemUuid != null) {
        status.withNewNodeInfo().withSystemUUID(systemUuid).endNodeInfo();
      }
      status
          .addNewCondition()
          .withType("Ready")
          .withStatus(ready ? "True" : "False")
          .endCondition();
      if (allocatable != null) {
        status.withAllocatable(allocatable);
      }
      return status.endStatus().build();
    }
  }
}
