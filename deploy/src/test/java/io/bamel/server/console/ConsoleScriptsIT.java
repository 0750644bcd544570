package io.bamel.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The console's own JavaScript unit tests (filters, state colours and shapes, the watch's resume
 * decisions and SSE parsing, the store, layout, charts, metrics, confirmations), run in headless
 * Chromium: a small HTTP server gives the browser the test page ({@code console-tests/} in the test
 * resources) and the console's modules exactly as the jar holds them.
 */
class ConsoleScriptsIT {

  private static final Map<String, String> ROOTS =
      Map.of("/console/", "io/bamel/inventory/api/console/", "/tests/", "console-tests/");

  private static HttpServer serve() throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          String resource = null;
          for (Map.Entry<String, String> root : ROOTS.entrySet()) {
            if (path.startsWith(root.getKey()) && !path.contains("..")) {
              resource = root.getValue() + path.substring(root.getKey().length());
            }
          }
          try (InputStream in =
              resource == null
                  ? null
                  : ConsoleScriptsIT.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
              exchange.sendResponseHeaders(404, -1);
              return;
            }
            byte[] body = in.readAllBytes();
            exchange
                .getResponseHeaders()
                .set(
                    "Content-Type",
                    path.endsWith(".js")
                        ? "text/javascript"
                        : path.endsWith(".css") ? "text/css" : "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
          } finally {
            exchange.close();
          }
        });
    server.start();
    return server;
  }

  @Test
  @SuppressWarnings("unchecked")
  void theConsolesUnitTestsPassInChromium() throws Exception {
    HttpServer server = serve();
    long start = System.nanoTime();
    try (Browser browser = Browser.start(1024, 768)) {
      browser.driver.get("http://127.0.0.1:" + server.getAddress().getPort() + "/tests/index.html");
      browser.await(
          "the unit tests to finish",
          Duration.ofSeconds(30),
          () -> browser.js("return window.consoleTestResults !== undefined") == Boolean.TRUE);
      List<Map<String, Object>> results =
          (List<Map<String, Object>>) browser.js("return window.consoleTestResults");
      results.forEach(
          r ->
              System.out.println(
                  "console unit test: "
                      + (Boolean.TRUE.equals(r.get("ok")) ? "ok   " : "FAIL ")
                      + r.get("name")
                      + (r.get("error") == null ? "" : " -- " + r.get("error"))));
      System.out.printf(
          "console unit tests: %d in %d ms (browser start included)%n",
          results.size(), Duration.ofNanos(System.nanoTime() - start).toMillis());
      assertThat(results).hasSizeGreaterThanOrEqualTo(20);
      assertThat(results)
          .allSatisfy(
              r ->
                  assertThat(r.get("ok"))
                      .as("%s: %s", r.get("name"), r.get("error"))
                      .isEqualTo(true));
    } finally {
      server.stop(0);
    }
  }
}
