package io.bamel.kube;

import io.bamel.net.OutboundPolicy;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.net.http.HttpClient;

/**
 * fabric8's JDK HTTP client with bamel's {@link OutboundPolicy}: fabric8 follows every redirect and
 * takes a proxy from {@code HTTP_PROXY}, {@code HTTPS_PROXY} and its system properties; bamel's
 * Kubernetes client follows none and connects directly to the API server its kubeconfig or service
 * account names.
 */
final class PolicyHttpClientFactory extends JdkHttpClientFactory {

  /** {@code config} without the proxies fabric8 read from the environment. */
  static Config withoutProxy(Config config) {
    return new ConfigBuilder(config)
        .withHttpProxy(null)
        .withHttpsProxy(null)
        .withProxyUsername(null)
        .withProxyPassword(null)
        .build();
  }

  @Override
  protected void additionalConfig(HttpClient.Builder builder) {
    // Runs after fabric8's own settings (Redirect.ALWAYS, its proxy): the policy has the last word.
    OutboundPolicy.apply(builder);
  }
}
