package io.bamel.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** The redirect rule of {@link OutboundPolicy} as a table of answers. */
class OutboundPolicyTest {

  private static final URI REQUESTED =
      URI.create("https://Bmc.Example:8443/redfish/v1/Systems?x=1");

  @Test
  void originsAreSchemeHostAndPortWithTheDefaultPortExplicit() {
    assertThat(OutboundPolicy.origin(URI.create("HTTPS://Host.Example/a")))
        .isEqualTo("https://host.example:443");
    assertThat(OutboundPolicy.origin(URI.create("http://192.0.2.1/a")))
        .isEqualTo("http://192.0.2.1:80");
    assertThat(OutboundPolicy.origin(URI.create("http://[2001:db8::1]:8080/a")))
        .isEqualTo("http://[2001:db8::1]:8080");
  }

  @Test
  void aRedirectToAnotherOriginIsRefusedNamingIt() {
    for (String location :
        new String[] {
          "https://other.example:8443/redfish/v1",
          "https://bmc.example:8444/redfish/v1",
          "http://bmc.example:8443/redfish/v1",
          "//other.example/x",
          "https://bmc.example/redfish/v1"
        }) {
      assertThatThrownBy(() -> OutboundPolicy.checkAnswer(REQUESTED, 302, location))
          .as(location)
          .isInstanceOf(RedirectRefusedException.class)
          .hasMessageStartingWith("refused redirect to another origin ")
          .hasMessageNotContaining("x=1");
    }
    assertThatThrownBy(() -> OutboundPolicy.checkAnswer(REQUESTED, 307, "http://192.0.2.9:9/steal"))
        .isInstanceOfSatisfying(
            RedirectRefusedException.class,
            e -> assertThat(e.origin()).isEqualTo("http://192.0.2.9:9"));
  }

  @Test
  void sameOriginRedirectsAndOtherAnswersPass() {
    assertThatCode(
            () -> {
              OutboundPolicy.checkAnswer(REQUESTED, 301, "/redfish/v1/");
              OutboundPolicy.checkAnswer(REQUESTED, 302, "https://BMC.example:8443/redfish/v1/");
              OutboundPolicy.checkAnswer(REQUESTED, 200, "https://other.example/");
              OutboundPolicy.checkAnswer(REQUESTED, 304, null);
              OutboundPolicy.checkAnswer(REQUESTED, 404, "https://other.example/");
            })
        .doesNotThrowAnyException();
  }
}
