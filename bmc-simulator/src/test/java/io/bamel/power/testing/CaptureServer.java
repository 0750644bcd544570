package io.bamel.power.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.bamel.power.sim.SelfSignedCertificate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * A loopback HTTP(S) server that records every request it receives (method, path, every header, the
 * body) and answers like a minimal Redfish BMC with a SessionService, or a Proxmox API: enough for
 * a driver to send its credential, so that a test can see whether it did.
 */
public final class CaptureServer implements AutoCloseable {

  /**
   * One request as received.
   *
   * @param method the method
   * @param path the path and query
   * @param headers every header line, {@code name: value}
   * @param body the body as text
   */
  public record Captured(String method, String path, List<String> headers, String body) {

    /** Everything received, as one text to search. */
    public String text() {
      return method + " " + path + "\n" + String.join("\n", headers) + "\n\n" + body;
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final List<Captured> received = new CopyOnWriteArrayList<>();
  private volatile String sessionsLink = "/redfish/v1/SessionService/Sessions";

  private CaptureServer(boolean tls) throws IOException {
    InetSocketAddress bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    if (tls) {
      HttpsServer https = HttpsServer.create(bind, 64);
      https.setHttpsConfigurator(
          new HttpsConfigurator(SelfSignedCertificate.generate().serverContext()));
      server = https;
    } else {
      server = HttpServer.create(bind, 64);
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** A plain-HTTP capture server on 127.0.0.1. */
  public static CaptureServer http() {
    return start(false);
  }

  /** An HTTPS capture server on 127.0.0.1 with a self-signed certificate nobody trusts. */
  public static CaptureServer https() {
    return start(true);
  }

  private static CaptureServer start(boolean tls) {
    try {
      return new CaptureServer(tls);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http(s)://127.0.0.1:PORT}. */
  public String url() {
    return (server instanceof HttpsServer ? "https" : "http")
        + "://127.0.0.1:"
        + server.getAddress().getPort();
  }

  /** Makes the service root link its SessionService to {@code link} (another origin, say). */
  public void linkSessionsTo(String link) {
    sessionsLink = link;
  }

  /** Every request received so far. */
  public List<Captured> received() {
    return List.copyOf(received);
  }

  /** Whether any request (line, header or body) contained {@code text}. */
  public boolean saw(String text) {
    return received.stream().anyMatch(c -> c.text().contains(text));
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      List<String> headers =
          exchange.getRequestHeaders().entrySet().stream()
              .flatMap(e -> e.getValue().stream().map(v -> e.getKey() + ": " + v))
              .collect(Collectors.toList());
      String path = exchange.getRequestURI().toString();
      received.add(new Captured(exchange.getRequestMethod(), path, headers, body));
      String method = exchange.getRequestMethod();
      if (method.equals("GET") && path.equals("/redfish/v1")) {
        answer(
            exchange,
            200,
            Map.of(),
            "{\"SessionService\":{\"@odata.id\":\"/redfish/v1/SessionService\"},"
                + "\"Links\":{\"Sessions\":{\"@odata.id\":\""
                + sessionsLink
                + "\"}}}");
      } else if (method.equals("POST") && path.endsWith("/Sessions")) {
        answer(
            exchange,
            201,
            Map.of("X-Auth-Token", "captured-session", "Location", path + "/1"),
            "{}");
      } else if (path.startsWith("/api2/json/")) {
        answer(exchange, 200, Map.of(), "{\"data\":{\"status\":\"running\"}}");
      } else {
        answer(exchange, 404, Map.of(), "{}");
      }
    }
  }

  private static void answer(
      HttpExchange exchange, int status, Map<String, String> headers, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    headers.forEach(exchange.getResponseHeaders()::set);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
