package io.bamel.inventory.api.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SessionWritesTest {

  private static final String CSRF = "c5rf-token";

  private static String refusal(String method, String origin, String host, String site, String h) {
    return SessionWrites.refusal(method, origin, host, site, h, CSRF);
  }

  @Test
  void readsNeedNothing() {
    assertThat(refusal("GET", null, null, "cross-site", null)).isNull();
    assertThat(refusal("HEAD", "http://evil.example", "127.0.0.1:8080", null, null)).isNull();
  }

  @Test
  void aWriteFromThePageItselfPasses() {
    assertThat(refusal("POST", "http://127.0.0.1:8080", "127.0.0.1:8080", "same-origin", CSRF))
        .isNull();
    assertThat(refusal("DELETE", "https://bamel.example", "bamel.example", null, CSRF)).isNull();
    assertThat(refusal("PATCH", "https://bamel.example:443", "BAMEL.example", null, CSRF)).isNull();
    assertThat(refusal("POST", "http://[2001:db8::1]:8080", "[2001:db8::1]:8080", null, CSRF))
        .isNull();
    assertThat(refusal("POST", "http://[2001:db8::1]", "[2001:db8::1]", null, CSRF)).isNull();
  }

  @Test
  void anotherOriginIsRefused() {
    assertThat(refusal("POST", "http://evil.example", "127.0.0.1:8080", null, CSRF))
        .contains("cross-origin");
    assertThat(refusal("POST", "http://127.0.0.1:8081", "127.0.0.1:8080", null, CSRF))
        .contains("cross-origin");
    assertThat(refusal("POST", "https://127.0.0.1:8080", "127.0.0.1", null, CSRF))
        .contains("cross-origin");
    assertThat(refusal("POST", "null", "127.0.0.1:8080", null, CSRF)).contains("not an origin");
    assertThat(refusal("POST", "http://127.0.0.1:8080/x", "127.0.0.1:8080", null, CSRF))
        .contains("not an origin");
  }

  @Test
  void aMissingOriginOrHostIsRefused() {
    assertThat(refusal("POST", null, "127.0.0.1:8080", null, CSRF)).contains("Origin header");
    assertThat(refusal("POST", "http://127.0.0.1", null, null, CSRF)).contains("Host");
  }

  @Test
  void aCrossSiteFetchIsRefusedEvenWithTheRightOrigin() {
    assertThat(refusal("POST", "http://127.0.0.1", "127.0.0.1", "cross-site", CSRF))
        .contains("Sec-Fetch-Site");
    assertThat(refusal("POST", "http://127.0.0.1", "127.0.0.1", "same-site", CSRF))
        .contains("Sec-Fetch-Site");
  }

  @Test
  void theCsrfTokenMustBeSentAndMatch() {
    assertThat(refusal("POST", "http://127.0.0.1", "127.0.0.1", null, null))
        .contains("X-CSRF-Token");
    assertThat(refusal("POST", "http://127.0.0.1", "127.0.0.1", null, "")).contains("X-CSRF-Token");
    assertThat(refusal("POST", "http://127.0.0.1", "127.0.0.1", null, CSRF + "x"))
        .contains("does not match");
  }

  @Test
  void messagesQuotePrintableShortTextOnly() {
    String origin = "http://" + "a".repeat(200) + "\u0007.example";
    assertThat(refusal("POST", origin, "127.0.0.1", null, CSRF)).hasSizeLessThan(160);
  }
}
