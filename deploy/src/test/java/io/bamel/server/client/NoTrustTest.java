package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpClient;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/**
 * The plain-HTTP client's TLS context: the HTTP client builds with it, and every TLS operation
 * asked of it fails, so nothing is ever trusted through it.
 */
class NoTrustTest {

  @Test
  void anHttpClientBuildsWithItAndEveryTlsOperationFails() {
    SSLContext context = NoTrust.context();

    HttpClient client = HttpClient.newBuilder().sslContext(context).build();

    assertThat(client.sslContext()).isSameAs(context);
    assertThat(context.getDefaultSSLParameters().getCipherSuites()).isNull();
    assertThatThrownBy(context::createSSLEngine).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> context.createSSLEngine("127.0.0.1", 443))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(context::getSocketFactory).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> context.init(null, null, null))
        .isInstanceOf(java.security.KeyManagementException.class);
  }
}
