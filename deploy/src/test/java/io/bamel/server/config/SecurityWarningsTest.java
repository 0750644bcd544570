package io.bamel.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SecurityWarningsTest {

  private static ServerConfig load(Map<String, String> flags) {
    return ConfigLoader.load(null, Map.of(), flags);
  }

  @Test
  void theEmbeddedDefaultOnLoopbackIsQuiet() {
    assertThat(SecurityWarnings.of(load(Map.of()))).isEmpty();
  }

  @Test
  void plainExternalEtcdWithoutAuthSaysWhatToSet() {
    assertThat(
            SecurityWarnings.of(
                load(
                    Map.of(
                        "etcd.endpoints", "http://127.0.0.1:2379", "auth.tokensFile", "/tokens"))))
        .singleElement()
        .asString()
        .contains("etcd.endpoints use plain http:// without etcd.user")
        .contains("etcd.caFile", "etcd.certFile", "etcd.keyFile", "etcd.passwordFile")
        .doesNotContain("\n");
    // Either TLS or etcd authentication is enough.
    assertThat(
            SecurityWarnings.of(
                load(
                    Map.of(
                        "etcd.endpoints",
                        "https://127.0.0.1:2379",
                        "etcd.caFile",
                        "/ca.crt",
                        "auth.tokensFile",
                        "/tokens"))))
        .isEmpty();
    assertThat(
            SecurityWarnings.of(
                load(
                    Map.of(
                        "etcd.endpoints",
                        "http://127.0.0.1:2379",
                        "etcd.user",
                        "bamel",
                        "etcd.passwordFile",
                        "/password",
                        "auth.tokensFile",
                        "/tokens"))))
        .isEmpty();
  }

  @Test
  void anApiOnOtherInterfacesWithoutTlsIsAWarning() {
    assertThat(SecurityWarnings.of(load(Map.of("http.host", "0.0.0.0"))))
        .singleElement()
        .asString()
        .contains("http.host is 0.0.0.0 without TLS")
        .contains("http.tls.certFile", "http.tls.keyFile");
    assertThat(
            SecurityWarnings.of(
                load(
                    Map.of(
                        "http.host",
                        "0.0.0.0",
                        "http.tls.certFile",
                        "/tls.crt",
                        "http.tls.keyFile",
                        "/tls.key"))))
        .isEmpty();
  }

  @Test
  void loopbackIsRecognisedWithoutResolvingNames() {
    assertThat(SecurityWarnings.isLoopback("127.0.0.1")).isTrue();
    assertThat(SecurityWarnings.isLoopback("127.1.2.3")).isTrue();
    assertThat(SecurityWarnings.isLoopback("localhost")).isTrue();
    assertThat(SecurityWarnings.isLoopback("::1")).isTrue();
    assertThat(SecurityWarnings.isLoopback("[::1]")).isTrue();
    assertThat(SecurityWarnings.isLoopback("0.0.0.0")).isFalse();
    assertThat(SecurityWarnings.isLoopback("::")).isFalse();
    assertThat(SecurityWarnings.isLoopback("192.0.2.10")).isFalse();
    assertThat(SecurityWarnings.isLoopback("127.example")).isFalse();
  }
}
