package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code kubectl kustomize} renders every shipped variant offline. */
class KustomizeIT {

  private static Path kubectl() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir, "kubectl");
      if (!dir.isEmpty() && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kubernetes",
        "kubernetes/overlays/external-etcd-tls",
        "kubernetes/overlays/service-monitor"
      })
  void renders(String dir) throws Exception {
    Path kubectl = kubectl();
    assumeTrue(kubectl != null, "kubectl is not installed: skipping the kustomize rendering check");
    Process p =
        new ProcessBuilder(kubectl.toString(), "kustomize", dir).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out)
        .contains(
            "kind: Deployment",
            "kind: ClusterRole",
            "kind: ServiceAccount",
            "kind: ConfigMap",
            "kind: Service")
        .contains("replicas: 2", "path: /healthz", "path: /readyz")
        .contains("pods/eviction");
    if (dir.endsWith("service-monitor")) {
      assertThat(out).contains("kind: ServiceMonitor");
    }
    if (dir.endsWith("external-etcd-tls")) {
      assertThat(out).contains("caFile: /etc/bamel/etcd/ca.crt", "secretName: bamel-etcd-client");
    }
  }
}
