package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.net.testing.RedirectTrap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

/**
 * bamel's Kubernetes client under the outbound policy (finding 5 of issue 30): an API server
 * address that answers {@code 302} to another origin sends the client nowhere else, and a proxy
 * that fabric8 took from the environment ({@code HTTP_PROXY}) is not used.
 */
class KubeRedirectAttackTest {

  private static KubernetesClient client(Config config) {
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder(PolicyHttpClientFactory.withoutProxy(config))
                .withRequestRetryBackoffLimit(0)
                .withRequestTimeout(5000)
                .withConnectionTimeout(5000)
                .build())
        .withHttpClientFactory(new PolicyHttpClientFactory())
        .build();
  }

  @Test
  void attack_kubernetesRedirectToOtherOrigin() throws Exception {
    try (RedirectTrap trap = RedirectTrap.start();
        KubernetesClient client =
            client(new ConfigBuilder().withMasterUrl(trap.allowedOrigin()).build())) {
      assertThatThrownBy(() -> client.nodes().list()).isInstanceOf(RuntimeException.class);
      assertThat(trap.allowedRequests()).isPositive();
      assertThat(trap.otherConnections()).isZero();
    }
  }

  @Test
  void attack_kubernetesProxyFromEnvironment() throws Exception {
    // The proxy fabric8 would have read from HTTP_PROXY: the other origin.
    try (RedirectTrap trap = RedirectTrap.start();
        KubernetesClient client =
            client(
                new ConfigBuilder()
                    .withMasterUrl(trap.allowedOrigin())
                    .withHttpProxy(trap.otherOrigin())
                    .withHttpsProxy(trap.otherOrigin())
                    .build())) {
      assertThatThrownBy(() -> client.nodes().list()).isInstanceOf(RuntimeException.class);
      assertThat(trap.allowedRequests()).as("requests sent directly").isPositive();
      assertThat(trap.otherConnections()).as("connections to the proxy").isZero();
    }
  }
}
