package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A GET from a plain {@code http://} server goes over {@link PlainGet}: one HTTP/1.1 request with
 * the token and no HTTP/2 upgrade (which {@code java.net.http} asks for on every plain request), an
 * answer's body read, an error answer's problem detail in the message.
 */
class PlainGetTest {

  private HttpServer server;
  private final Map<String, List<String>> headers = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/api/v1/nodes",
        exchange -> {
          exchange.getRequestHeaders().forEach(headers::put);
          boolean missing = exchange.getRequestURI().getPath().endsWith("/missing");
          byte[] body =
              (missing
                      ? "{\"title\":\"Not Found\",\"detail\":\"no node missing\"}"
                      : "{\"items\":[]}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(missing ? 404 : 200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private ApiClient client() {
    URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    return new ApiClient(new ClientConfig(uri, "secret-token", "BAMEL_TOKEN", null, null));
  }

  @Test
  void aGetIsOnePlainHttp11RequestWithTheToken() {
    assertThat(client().get(ApiClient.API + "/nodes").path("items").isArray()).isTrue();
    assertThat(headers.get("Authorization")).containsExactly("Bearer secret-token");
    assertThat(headers.get("Accept")).containsExactly("application/json");
    assertThat(headers).doesNotContainKeys("Upgrade", "Http2-settings", "HTTP2-Settings");
  }

  @Test
  void anErrorAnswerCarriesTheServersDetail() {
    assertThatThrownBy(() -> client().get(ApiClient.API + "/nodes/missing"))
        .isInstanceOf(ClientException.class)
        .hasMessage(
            "not found: /api/v1/nodes/missing (404 from http://127.0.0.1:"
                + server.getAddress().getPort()
                + "): no node missing");
  }
}
