package io.bamel.kube;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeRequirement;
import io.bamel.inventory.cluster.PodRef;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns fabric8 model objects into the port's records. Pure. */
final class Fabric8Mapping {

  private Fabric8Mapping() {}

  /**
   * The {@code policy/v1} Eviction of {@code pod}: the only version a Kubernetes 1.25+ API server
   * serves ({@code policy/v1beta1} was removed).
   */
  static Eviction eviction(PodRef pod) {
    return new EvictionBuilder()
        .withApiVersion("policy/v1")
        .withKind("Eviction")
        .withNewMetadata()
        .withName(pod.name())
        .withNamespace(pod.namespace())
        .endMetadata()
        .build();
  }

  static KubeNode node(Node node) {
    var meta = node.getMetadata();
    boolean ready = false;
    if (node.getStatus() != null && node.getStatus().getConditions() != null) {
      for (NodeCondition c : node.getStatus().getConditions()) {
        if ("Ready".equals(c.getType())) {
          ready = "True".equals(c.getStatus());
        }
      }
    }
    boolean unschedulable =
        node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    Map<String, BigDecimal> allocatable =
        node.getStatus() == null ? Map.of() : amounts(node.getStatus().getAllocatable());
    String systemUuid =
        node.getStatus() == null || node.getStatus().getNodeInfo() == null
            ? null
            : node.getStatus().getNodeInfo().getSystemUUID();
    String providerId = node.getSpec() == null ? null : node.getSpec().getProviderID();
    return new KubeNode(
        meta.getName(),
        ready,
        unschedulable,
        meta.getLabels(),
        meta.getAnnotations(),
        allocatable,
        systemUuid,
        providerId);
  }

  static KubePod pod(Pod pod) {
    var meta = pod.getMetadata();
    var spec = pod.getSpec();
    Map<String, BigDecimal> requests = spec == null ? new HashMap<>() : requests(spec);
    Map<String, String> nodeSelector = Map.of();
    Set<String> pools = new HashSet<>();
    List<List<NodeRequirement>> terms = List.of();
    String nodeName = null;
    if (spec != null) {
      nodeName = spec.getNodeName();
      if (spec.getNodeSelector() != null) {
        nodeSelector = spec.getNodeSelector();
        String pool = nodeSelector.get(Cluster.POOL_LABEL);
        if (pool != null) {
          pools.add(pool);
        }
      }
      terms = requiredNodeTerms(pod);
      for (List<NodeRequirement> term : terms) {
        for (NodeRequirement r : term) {
          if (Cluster.POOL_LABEL.equals(r.key()) && "In".equals(r.operator())) {
            pools.addAll(r.values());
          }
        }
      }
    }
    Boolean scheduled = null;
    String reason = null;
    String phase = null;
    if (pod.getStatus() != null) {
      phase = pod.getStatus().getPhase();
      if (pod.getStatus().getConditions() != null) {
        for (PodCondition c : pod.getStatus().getConditions()) {
          if ("PodScheduled".equals(c.getType())) {
            scheduled = "True".equals(c.getStatus());
            reason = c.getReason();
          }
        }
      }
    }
    String ownerKind = null;
    List<OwnerReference> owners = meta.getOwnerReferences();
    if (owners != null) {
      for (OwnerReference o : owners) {
        if (ownerKind == null || Boolean.TRUE.equals(o.getController())) {
          ownerKind = o.getKind();
        }
      }
    }
    String namespace = meta.getNamespace() == null ? "default" : meta.getNamespace();
    return new KubePod(
        new PodRef(namespace, meta.getName()),
        nodeName,
        phase,
        requests,
        scheduled,
        reason,
        ownerKind,
        meta.getLabels(),
        meta.getAnnotations(),
        nodeSelector,
        pools,
        terms);
  }

  /**
   * A pod's effective requests by the scheduler's rule: per resource, the larger of the sum of its
   * containers and the largest init container, plus the pod's overhead. Sidecars (init containers
   * with {@code restartPolicy: Always}) keep running: they add to the containers' sum, and every
   * init container after them runs beside them.
   */
  static Map<String, BigDecimal> requests(io.fabric8.kubernetes.api.model.PodSpec spec) {
    Map<String, BigDecimal> containers = new HashMap<>();
    if (spec.getContainers() != null) {
      for (Container c : spec.getContainers()) {
        addAll(containers, requestsOf(c));
      }
    }
    Map<String, BigDecimal> sidecars = new HashMap<>();
    Map<String, BigDecimal> init = new HashMap<>();
    if (spec.getInitContainers() != null) {
      for (Container c : spec.getInitContainers()) {
        Map<String, BigDecimal> own = requestsOf(c);
        if ("Always".equals(c.getRestartPolicy())) {
          addAll(sidecars, own);
          maxAll(init, sidecars);
        } else {
          Map<String, BigDecimal> running = new HashMap<>(sidecars);
          addAll(running, own);
          maxAll(init, running);
        }
      }
    }
    Map<String, BigDecimal> out = new HashMap<>(containers);
    addAll(out, sidecars);
    maxAll(out, init);
    addAll(out, amounts(spec.getOverhead()));
    return out;
  }

  private static Map<String, BigDecimal> requestsOf(Container c) {
    return c == null || c.getResources() == null
        ? Map.of()
        : amounts(c.getResources().getRequests());
  }

  private static void addAll(Map<String, BigDecimal> into, Map<String, BigDecimal> amounts) {
    amounts.forEach((k, v) -> into.merge(k, v, BigDecimal::add));
  }

  private static void maxAll(Map<String, BigDecimal> into, Map<String, BigDecimal> amounts) {
    amounts.forEach((k, v) -> into.merge(k, v, BigDecimal::max));
  }

  /**
   * The required node affinity's terms; each term's {@code matchExpressions} then its {@code
   * matchFields} (keyed by the field name), so that a term holding only field requirements is not
   * mistaken for an empty one.
   */
  private static List<List<NodeRequirement>> requiredNodeTerms(Pod pod) {
    var affinity = pod.getSpec().getAffinity();
    if (affinity == null
        || affinity.getNodeAffinity() == null
        || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
      return List.of();
    }
    var required = affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    if (required.getNodeSelectorTerms() == null) {
      return List.of();
    }
    List<List<NodeRequirement>> terms = new ArrayList<>();
    for (NodeSelectorTerm term : required.getNodeSelectorTerms()) {
      if (term == null) {
        continue;
      }
      List<NodeRequirement> requirements = new ArrayList<>();
      addAll(requirements, term.getMatchExpressions());
      addAll(requirements, term.getMatchFields());
      terms.add(requirements);
    }
    return terms;
  }

  private static void addAll(List<NodeRequirement> out, List<NodeSelectorRequirement> in) {
    if (in != null) {
      for (NodeSelectorRequirement r : in) {
        if (r != null) {
          out.add(new NodeRequirement(r.getKey(), r.getOperator(), r.getValues()));
        }
      }
    }
  }

  private static Map<String, BigDecimal> amounts(Map<String, Quantity> quantities) {
    Map<String, BigDecimal> out = new HashMap<>();
    if (quantities != null) {
      quantities.forEach(
          (name, q) -> {
            try {
              out.put(name, Quantity.getAmountInBytes(q));
            } catch (ArithmeticException | IllegalArgumentException e) {
              // a malformed quantity counts as absent
            }
          });
    }
    return out;
  }
}
