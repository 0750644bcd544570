package io.bamel.power.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bamel.power.TlsSettings;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * A driver's base client speaks plain HTTP only, so building it sets up no TLS; {@link
 * TlsConfigurer#apply} turns TLS on again for an {@code https://} connection, with the trust its
 * settings name.
 */
class TlsConfigurerTest {

  @Test
  void aCleartextClientHasNoTls() {
    OkHttpClient client = TlsConfigurer.cleartext(new OkHttpClient.Builder()).build();

    assertThat(client.connectionSpecs()).containsExactly(ConnectionSpec.CLEARTEXT);
    assertThat(client.x509TrustManager()).isNull();
    assertThatThrownBy(client::sslSocketFactory).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void applyTurnsTlsOnAgainWithTheJvmTrustStoreByDefault() throws Exception {
    OkHttpClient base = TlsConfigurer.cleartext(new OkHttpClient.Builder()).build();

    OkHttpClient client =
        TlsConfigurer.apply(base.newBuilder(), new TlsSettings(null, false, null)).build();

    assertThat(client.connectionSpecs())
        .containsExactly(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT);
    assertThat(client.x509TrustManager()).isNotNull();
    assertThat(client.x509TrustManager().getAcceptedIssuers()).isNotEmpty();
  }

  @Test
  void applyWithoutVerificationTrustsNothingFromTheJvmStore() throws Exception {
    OkHttpClient base = TlsConfigurer.cleartext(new OkHttpClient.Builder()).build();

    OkHttpClient client =
        TlsConfigurer.apply(base.newBuilder(), TlsSettings.insecureSkipVerify()).build();

    assertThat(client.connectionSpecs()).contains(ConnectionSpec.MODERN_TLS);
    assertThat(client.x509TrustManager().getAcceptedIssuers()).isEmpty();
  }
}
