package io.bamel.inventory.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.testing.EtcdExtension;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's sign-in against a real API: a pasted token becomes an HttpOnly, SameSite=Strict
 * cookie (Secure and {@code __Host-} under TLS) carrying the token's scope; the cookie reads the
 * API, and writes with it need the page's Origin and CSRF token; signing out ends the session and
 * its watch stream; a session expires; bearer tokens work as before.
 */
class SessionIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  @TempDir Path dir;

  /** A signed-in browser, as far as the server can tell: its cookie and CSRF token. */
  private record Signed(String cookie, String csrf, ApiFixture.Response response) {}

  private static final byte[] ON = "{\"state\":\"on\"}".getBytes(StandardCharsets.UTF_8);

  private static Signed signIn(ApiFixture f, String token) {
    ApiFixture.Response r = f.signIn(ApiFixture.pasted(token), Map.of("Origin", f.base));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    String setCookie = r.header("Set-Cookie");
    String pair = setCookie.substring(0, setCookie.indexOf(';'));
    return new Signed(pair, r.json().path("csrfToken").asText(), r);
  }

  private static Map<String, String> headers(Signed s, String origin, boolean csrf) {
    Map<String, String> h = new HashMap<>();
    h.put("Cookie", s.cookie());
    if (origin != null) {
      h.put("Origin", origin);
    }
    if (csrf) {
      h.put("X-CSRF-Token", s.csrf());
    }
    return h;
  }

  private static ApiFixture.Response power(ApiFixture f, Map<String, String> headers) {
    return f.send("POST", "/api/v1/nodes/n001/power", null, "application/json", ON, headers);
  }

  @Test
  void aSessionReadsAndWritesWithTheTokensScopeOnlyFromThePage() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      f.json("PUT", "/api/v1/nodes/n001", Json.of(Json.spec(1, "a")));

      Signed write = signIn(f, ApiFixture.WRITE);
      String setCookie = write.response().header("Set-Cookie");
      assertThat(setCookie)
          .startsWith("bamel-session=")
          .contains("HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=28800")
          .doesNotContain("Secure")
          .doesNotContainIgnoringCase("Domain=")
          .doesNotContain(ApiFixture.WRITE);
      assertThat(write.response().header("Cache-Control")).isEqualTo("no-store");
      assertThat(write.response().json().path("principal").asText()).isEqualTo("dcim");
      assertThat(write.response().json().path("scope").asText()).isEqualTo("write");
      assertThat(write.response().body()).doesNotContain(ApiFixture.WRITE);

      // Reads with the cookie alone.
      assertThat(
              f.send("GET", "/api/v1/nodes", null, null, null, headers(write, null, false))
                  .status())
          .isEqualTo(200);
      ApiFixture.Response who =
          f.send("GET", "/api/v1/session", null, null, null, headers(write, null, false));
      assertThat(who.json().path("csrfToken").asText()).isEqualTo(write.csrf());

      // Writes need the page's Origin and the CSRF token.
      ApiFixture.Response noCsrf = power(f, headers(write, f.base, false));
      assertThat(noCsrf.status()).isEqualTo(403);
      assertThat(noCsrf.json().path("detail").asText()).contains("X-CSRF-Token");
      assertThat(power(f, headers(write, null, true)).status()).isEqualTo(403);
      ApiFixture.Response foreign = power(f, headers(write, "http://evil.example", true));
      assertThat(foreign.status()).isEqualTo(403);
      assertThat(foreign.json().path("detail").asText()).contains("cross-origin");
      Map<String, String> crossSite = headers(write, f.base, true);
      crossSite.put("Sec-Fetch-Site", "cross-site");
      assertThat(power(f, crossSite).status()).isEqualTo(403);
      ApiFixture.Response ok = power(f, headers(write, f.base, true));
      assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
      assertThat(f.get("/api/v1/nodes/n001/events").body()).contains("\"principal\":\"dcim\"");

      // A read-only session is refused the write even when it is well-formed.
      Signed read = signIn(f, ApiFixture.READ);
      ApiFixture.Response forged = power(f, headers(read, f.base, true));
      assertThat(forged.status()).isEqualTo(403);
      assertThat(forged.json().path("detail").asText()).contains("lacks scope write");

      // A bearer token wins over a cookie and needs no CSRF token.
      Map<String, String> both = headers(read, null, false);
      assertThat(
              f.send(
                      "POST",
                      "/api/v1/nodes/n001/power",
                      ApiFixture.WRITE,
                      "application/json",
                      ON,
                      both)
                  .status())
          .isEqualTo(200);
    }
  }

  @Test
  void signInRefusesBadTokensAndForeignOrigins() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      ApiFixture.Response wrong = f.signIn(ApiFixture.pasted("bml_not-a-token"), Map.of());
      assertThat(wrong.status()).isEqualTo(401);
      assertThat(wrong.header("Set-Cookie")).isNull();
      assertThat(wrong.body()).doesNotContain("bml_not-a-token");
      ApiFixture.Response foreign =
          f.signIn(ApiFixture.pasted(ApiFixture.READ), Map.of("Origin", "http://evil.example"));
      assertThat(foreign.status()).isEqualTo(403);
      assertThat(foreign.header("Set-Cookie")).isNull();
      ApiFixture.Response form =
          f.send(
              "POST",
              "/api/v1/session",
              null,
              "application/x-www-form-urlencoded",
              ("token=" + ApiFixture.READ).getBytes(StandardCharsets.UTF_8),
              Map.of());
      assertThat(form.status()).isEqualTo(415);
      ApiFixture.Response extra = f.signIn("{\"token\":\"x\",\"scope\":\"admin\"}", Map.of());
      assertThat(extra.status()).isEqualTo(400);
      assertThat(f.send("GET", "/api/v1/session", null, null, null, Map.of()).status())
          .isEqualTo(401);
      assertThat(
              f.send(
                      "GET",
                      "/api/v1/nodes",
                      null,
                      null,
                      null,
                      Map.of("Cookie", "bamel-session=forged"))
                  .status())
          .isEqualTo(401);
    }
  }

  @Test
  void signingOutEndsTheSessionAndItsWatchStream() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      Signed s = signIn(f, ApiFixture.READ);
      HttpRequest.Builder watch =
          HttpRequest.newBuilder(URI.create(f.base + "/api/v1/watch")).header("Cookie", s.cookie());
      CompletableFuture<HttpResponse<InputStream>> stream =
          f.http.sendAsync(watch.build(), HttpResponse.BodyHandlers.ofInputStream());
      HttpResponse<InputStream> open = stream.get(10, TimeUnit.SECONDS);
      assertThat(open.statusCode()).isEqualTo(200);
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(open.body(), StandardCharsets.UTF_8));
      assertThat(lines.readLine()).startsWith(": watching");

      assertThat(
              f.send("DELETE", "/api/v1/session", null, null, null, headers(s, f.base, false))
                  .status())
          .isEqualTo(403);
      ApiFixture.Response out =
          f.send("DELETE", "/api/v1/session", null, null, null, headers(s, f.base, true));
      assertThat(out.status()).isEqualTo(204);
      assertThat(out.header("Set-Cookie")).startsWith("bamel-session=;").contains("Max-Age=0");
      assertThat(f.send("GET", "/api/v1/nodes", null, null, null, headers(s, null, false)).status())
          .isEqualTo(401);
      // The next change ends the stream instead of reaching the signed-out page.
      f.json("PUT", "/api/v1/nodes/n002", Json.of(Json.spec(2, "a")));
      CompletableFuture<Boolean> ended =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  String line;
                  while ((line = lines.readLine()) != null) {
                    if (line.startsWith("data:")) {
                      return false;
                    }
                  }
                  return true;
                } catch (java.io.IOException e) {
                  return true;
                }
              });
      assertThat(ended.get(20, TimeUnit.SECONDS)).isTrue();
      // Signing out again, or without a session, is fine.
      assertThat(f.send("DELETE", "/api/v1/session", null, null, null, Map.of()).status())
          .isEqualTo(204);
    }
  }

  @Test
  void aSessionExpires() throws Exception {
    ApiOptions options =
        ApiOptions.DEFAULTS.sessions(new ApiOptions.Sessions(Duration.ofSeconds(1), 10, 10));
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), options)) {
      Signed s = signIn(f, ApiFixture.READ);
      assertThat(s.response().header("Set-Cookie")).contains("Max-Age=1");
      Thread.sleep(1_500);
      ApiFixture.Response late =
          f.send("GET", "/api/v1/nodes", null, null, null, headers(s, null, false));
      assertThat(late.status()).isEqualTo(401);
      assertThat(late.json().path("detail").asText()).contains("sign in again");
    }
  }

  @Test
  void underTlsTheCookieIsSecureAndHostBound() throws Exception {
    ApiTlsFiles.Served pki = ApiTlsFiles.bamelApi(dir);
    try (ApiFixture f = ApiFixture.start(ETCD.cluster(), ApiOptions.DEFAULTS.tls(pki.tls()))) {
      HttpClient https = HttpClient.newBuilder().sslContext(pki.trusting()).build();
      HttpResponse<String> r =
          https.send(
              HttpRequest.newBuilder(URI.create(f.base + "/api/v1/session"))
                  .header("Content-Type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"token\":\"" + ApiFixture.READ + "\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(201);
      String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
      assertThat(setCookie)
          .startsWith("__Host-bamel-session=")
          .contains("Secure", "HttpOnly", "SameSite=Strict", "Path=/")
          .doesNotContainIgnoringCase("Domain=");
      // The plain name is not a session under TLS: only the __Host- cookie, which a plain-HTTP
      // listener on another port of the same host name never receives from a browser, is read.
      HttpResponse<String> plainName =
          https.send(
              HttpRequest.newBuilder(URI.create(f.base + "/api/v1/nodes"))
                  .header(
                      "Cookie",
                      "bamel-session="
                          + setCookie.substring(setCookie.indexOf('=') + 1).split(";")[0])
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(plainName.statusCode()).isEqualTo(401);
      String pair = setCookie.substring(0, setCookie.indexOf(';'));
      HttpResponse<String> nodes =
          https.send(
              HttpRequest.newBuilder(URI.create(f.base + "/api/v1/nodes"))
                  .header("Cookie", pair)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(nodes.statusCode()).isEqualTo(200);
    }
  }

  @Test
  void theConsoleIsServedWithoutATokenAndWithAStrictPolicy() throws Exception {
    try (ApiFixture f = ApiFixture.start(ETCD.cluster())) {
      ApiFixture.Response root = f.send("GET", "/", null, null, null, Map.of());
      assertThat(root.status()).isEqualTo(302);
      assertThat(root.header("Location")).isEqualTo("/ui/");
      ApiFixture.Response page = f.send("GET", "/ui/", null, null, null, Map.of());
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.contentType()).startsWith("text/html");
      assertThat(page.body()).contains("<script type=\"module\"");
      assertThat(page.header("Content-Security-Policy"))
          .contains("script-src 'self'")
          .contains("frame-ancestors 'none'")
          .doesNotContain("unsafe");
      assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
      ApiFixture.Response script = f.send("GET", "/ui/js/app.js", null, null, null, Map.of());
      assertThat(script.status()).isEqualTo(200);
      assertThat(script.contentType()).contains("javascript");
      assertThat(f.send("GET", "/ui/js/nothing.js", null, null, null, Map.of()).status())
          .isEqualTo(404);
      assertThat(f.send("GET", "/ui/%2e%2e/openapi.json", null, null, null, Map.of()).status())
          .isEqualTo(404);
      assertThat(f.get("/metrics").body()).contains("route=\"/ui/*\"");
    }
  }
}
