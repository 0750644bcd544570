package io.bamel.server;

import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.DisconnectedCluster;
import io.bamel.kube.Fabric8Cluster;
import io.bamel.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the Kubernetes connection: in-cluster (a service account is mounted), a kubeconfig, or
 * none, in which case the controllers run disconnected (a node whose BMC reports on is ready).
 */
final class ClusterFactory {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterFactory.class);
  private static final Path SERVICE_ACCOUNT =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  private ClusterFactory() {}

  static Cluster create(ServerConfig.Kubernetes k8s, Map<String, String> env) {
    String mode = k8s.mode();
    if (mode.equals("auto")) {
      mode = detect(k8s, env);
    }
    switch (mode) {
      case "none" -> {
        LOG.info("kubernetes: none; controllers run disconnected");
        return DisconnectedCluster.INSTANCE;
      }
      case "kubeconfig" -> {
        if (!k8s.kubeconfig().isEmpty()) {
          System.setProperty("kubeconfig", k8s.kubeconfig());
        }
        LOG.info(
            "kubernetes: kubeconfig {}",
            k8s.kubeconfig().isEmpty() ? "(default)" : k8s.kubeconfig());
      }
      default -> LOG.info("kubernetes: in-cluster service account");
    }
    return Fabric8Cluster.connect(k8s.context().isEmpty() ? null : k8s.context(), k8s.timeout(), 0);
  }

  private static String detect(ServerConfig.Kubernetes k8s, Map<String, String> env) {
    if (env.containsKey("KUBERNETES_SERVICE_HOST") && Files.exists(SERVICE_ACCOUNT)) {
      return "in-cluster";
    }
    if (!k8s.kubeconfig().isEmpty() || env.containsKey("KUBECONFIG")) {
      return "kubeconfig";
    }
    Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
    return Files.exists(home) ? "kubeconfig" : "none";
  }
}
