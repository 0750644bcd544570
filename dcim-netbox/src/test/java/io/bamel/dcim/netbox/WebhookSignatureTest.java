package io.bamel.dcim.netbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

  private static final WebhookSecret SECRET = WebhookSecret.of("  Sup3r-Secret\n", "test");
  private static final byte[] BODY =
      "{\"event\": \"updated\", \"model\": \"device\", \"data\": {\"id\": 7}}"
          .getBytes(StandardCharsets.UTF_8);
  // hmac.new(b'Sup3r-Secret', BODY, hashlib.sha512).hexdigest(), as NetBox's generate_signature.
  private static final String NETBOX =
      "f4c89799316d44ae93d9f3ab1d515f940df69204c62e5cc57d88c6a7ad793f58"
          + "a6376e2a2f030db3ce4347f0730d2e5da2f3d576757e7bbf4ed67a4e6977ee8e";

  @Test
  void matchesWhatNetBoxComputes() {
    assertThat(WebhookSignature.sign(SECRET, BODY)).isEqualTo(NETBOX);
    assertThat(WebhookSignature.verify(SECRET, BODY, NETBOX)).isTrue();
    assertThat(WebhookSignature.verify(SECRET, BODY, NETBOX.toUpperCase(Locale.ROOT))).isTrue();
  }

  @Test
  void refusesAnythingElse() {
    byte[] other = BODY.clone();
    other[other.length - 2] = '8';
    assertThat(WebhookSignature.verify(SECRET, other, NETBOX)).isFalse();
    assertThat(WebhookSignature.verify(WebhookSecret.of("other", "t"), BODY, NETBOX)).isFalse();
    assertThat(WebhookSignature.verify(SECRET, BODY, null)).isFalse();
    assertThat(WebhookSignature.verify(SECRET, BODY, "")).isFalse();
    assertThat(WebhookSignature.verify(SECRET, BODY, NETBOX.substring(2))).isFalse();
    assertThat(WebhookSignature.verify(SECRET, BODY, "zz" + NETBOX.substring(2))).isFalse();
    assertThat(WebhookSignature.verify(SECRET, BODY, "0".repeat(128))).isFalse();
  }

  @Test
  void theSecretIsNeverShown() {
    assertThat(SECRET.toString()).doesNotContain("Sup3r");
  }
}
