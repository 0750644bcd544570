package io.bamel.kube;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.ClusterException;
import io.bamel.inventory.cluster.ClusterUnavailableException;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.KubeNode;
import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.PodRef;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Cluster} port over a fabric8 {@link KubernetesClient} (with the JDK HTTP client).
 * Every call is one or two requests; there is no local cache. Failures map to {@link
 * ClusterUnavailableException} (no answer, timeouts, 5xx) or {@link ClusterException} (other
 * refusals). Thread-safe, as the client is.
 */
public final class Fabric8Cluster implements Cluster {

  private static final Logger log = LoggerFactory.getLogger(Fabric8Cluster.class);

  private final KubernetesClient client;

  /**
   * Connects with the usual fabric8 configuration (in-cluster service account, else {@code
   * KUBECONFIG} or {@code ~/.kube/config}, context {@code context} or the current one), over the
   * JDK HTTP client, with {@code timeout} per request and at most {@code retries} retries of a
   * failed request.
   */
  public static Fabric8Cluster connect(String context, Duration timeout, int retries) {
    Config config =
        new ConfigBuilder(Config.autoConfigure(context))
            .withRequestTimeout((int) timeout.toMillis())
            .withConnectionTimeout((int) timeout.toMillis())
            .withRequestRetryBackoffLimit(retries)
            .build();
    return new Fabric8Cluster(
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new JdkHttpClientFactory())
            .build());
  }

  /** A cluster over {@code client}; {@link #close()} closes it. */
  public Fabric8Cluster(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public boolean reachable() {
    try {
      call("probing the API server", () -> client.nodes().withName("bamel-probe").get());
      return true;
    } catch (ClusterUnavailableException e) {
      return false;
    } catch (ClusterException e) {
      return true; // it answered
    }
  }

  @Override
  public List<KubeNode> nodes() {
    return call(
        "listing nodes",
        () -> client.nodes().list().getItems().stream().map(Fabric8Mapping::node).toList());
  }

  @Override
  public Optional<KubeNode> node(String name) {
    return call(
        "reading node " + name,
        () -> Optional.ofNullable(client.nodes().withName(name).get()).map(Fabric8Mapping::node));
  }

  @Override
  public List<KubePod> pods() {
    return call(
        "listing pods",
        () ->
            client.pods().inAnyNamespace().list().getItems().stream()
                .map(Fabric8Mapping::pod)
                .toList());
  }

  @Override
  public List<KubePod> podsOn(String nodeName) {
    return call(
        "listing pods on " + nodeName,
        () ->
            client
                .pods()
                .inAnyNamespace()
                .withField("spec.nodeName", nodeName)
                .list()
                .getItems()
                .stream()
                .map(Fabric8Mapping::pod)
                // the field selector is an optimisation; the filter is the rule
                .filter(p -> nodeName.equals(p.nodeName()))
                .toList());
  }

  @Override
  public boolean cordon(String nodeName) {
    return setUnschedulable(nodeName, true);
  }

  @Override
  public boolean uncordon(String nodeName) {
    return setUnschedulable(nodeName, false);
  }

  private boolean setUnschedulable(String nodeName, boolean unschedulable) {
    return call(
        (unschedulable ? "cordoning " : "uncordoning ") + nodeName,
        () -> {
          var node = client.nodes().withName(nodeName).get();
          if (node == null) {
            return false;
          }
          boolean current =
              node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
          if (current != unschedulable) {
            client
                .nodes()
                .withName(nodeName)
                .edit(
                    n ->
                        new NodeBuilder(n)
                            .editOrNewSpec()
                            .withUnschedulable(unschedulable ? Boolean.TRUE : null)
                            .endSpec()
                            .build());
          }
          return true;
        });
  }

  @Override
  public boolean label(String nodeName, Map<String, String> labels) {
    return call(
        "labelling " + nodeName,
        () -> {
          var node = client.nodes().withName(nodeName).get();
          if (node == null) {
            return false;
          }
          Map<String, String> current =
              node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
          Map<String, String> merged = new HashMap<>(current);
          merged.putAll(labels);
          if (!merged.equals(current)) {
            client
                .nodes()
                .withName(nodeName)
                .edit(
                    n ->
                        new NodeBuilder(n).editMetadata().withLabels(merged).endMetadata().build());
          }
          return true;
        });
  }

  @Override
  public EvictionResult evict(PodRef pod) {
    try {
      boolean evicted =
          client
              .pods()
              .inNamespace(pod.namespace())
              .withName(pod.name())
              .evict(Fabric8Mapping.eviction(pod));
      return evicted
          ? new EvictionResult(pod, EvictionResult.Status.EVICTED, "evicted")
          : new EvictionResult(
              pod,
              EvictionResult.Status.BLOCKED_BY_BUDGET,
              "eviction refused (429): a PodDisruptionBudget allows no disruption now");
    } catch (KubernetesClientException e) {
      int code = e.getCode();
      if (code == 404) {
        return new EvictionResult(pod, EvictionResult.Status.GONE, "no such pod");
      }
      if (code == 429) {
        return new EvictionResult(pod, EvictionResult.Status.BLOCKED_BY_BUDGET, message(e));
      }
      if (unavailable(e)) {
        throw new ClusterUnavailableException("evicting " + pod + ": " + message(e), e);
      }
      return new EvictionResult(pod, EvictionResult.Status.REFUSED, code + ": " + message(e));
    }
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (RuntimeException e) {
      log.debug("closing the Kubernetes client failed", e);
    }
  }

  private static <T> T call(String what, Supplier<T> request) {
    try {
      return request.get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404 && what.startsWith("probing")) {
        return null;
      }
      if (unavailable(e)) {
        throw new ClusterUnavailableException(what + ": " + message(e), e);
      }
      throw new ClusterException(what + ": " + message(e), e);
    }
  }

  /** No HTTP answer (connection refused, timeout, interrupted) or a 5xx. */
  static boolean unavailable(KubernetesClientException e) {
    int code = e.getCode();
    if (code >= 500 || code == 0) {
      return true;
    }
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof InterruptedIOException) {
        return true;
      }
    }
    return false;
  }

  private static String message(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getStatus().getMessage();
    }
    return String.valueOf(e.getMessage());
  }
}
