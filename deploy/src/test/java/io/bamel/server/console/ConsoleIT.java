package io.bamel.server.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.server.ReservedEtcdPorts;
import io.bamel.server.StopHook;
import io.bamel.server.demo.DemoCommand;
import io.bamel.server.demo.DemoFleet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebElement;

/**
 * The web console in headless Chromium against the whole demo (embedded etcd, 24 simulated BMCs,
 * the simulated cluster, both controllers) started in this JVM on a free port. The browser reaches
 * bamel through a {@link TcpProxy}, so the test can drop its network. In order: sign in; the 24
 * nodes in their racks; a power-on through the API shown as off, powering-on, ready without a
 * reload; a change shown within a second; a pool's numbers equal to the API's; a dropped watch
 * reconnecting and catching up; the README's screenshot; the page's own power actions; signing out;
 * a read-only token without power buttons whose forged write is refused.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String READ_TOKEN = TokenStore.newToken();

  private static StopHook hook;
  private static DemoCommand.Demo demo;
  private static TcpProxy proxy;
  private static Browser browser;
  private static String adminToken;
  private static String page;
  private static String api;
  private static String poweredOn;

  @BeforeAll
  static void startDemo() throws Exception {
    long start = System.nanoTime();
    hook = StopHook.install("console-it-stop");
    Path dir = Files.createTempDirectory("bamel-console-it-");
    // the demo's etcd on ports of its own, not 2379/2380, which tests in other JVMs may hold
    ReservedEtcdPorts.reserve(dir.resolve("etcd"));
    demo =
        DemoCommand.Demo.start(
            dir,
            "127.0.0.1",
            0,
            Duration.ofSeconds(90),
            hook,
            List.of(TokenStore.line("viewer", "read", READ_TOKEN)));
    adminToken = Files.readString(demo.adminTokenFile()).strip();
    api = "http://127.0.0.1:" + demo.port();
    proxy = hook.own(new TcpProxy(demo.port()));
    page = "http://127.0.0.1:" + proxy.port();
    browser = Browser.start(1280, 860);
    System.out.printf("console: demo and browser up in %d ms%n", millis(start));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (hook != null) {
      hook.cancel();
    }
  }

  private static long millis(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
  }

  private static HttpResponse<String> call(String method, String path, String token, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(20));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      b.header(
          "Content-Type",
          method.equals("PATCH") ? "application/merge-patch+json" : "application/json");
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode get(String path) throws Exception {
    HttpResponse<String> r = call("GET", path, adminToken, null);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  private static WebElement find(String css) {
    return browser.driver.findElement(By.cssSelector(css));
  }

  private static boolean present(String css) {
    return !browser.driver.findElements(By.cssSelector(css)).isEmpty();
  }

  private static String tileState(String id) {
    return (String)
        browser.js(
            "const t = document.querySelector(`li.node[data-id=\"${arguments[0]}\"]`);"
                + " return t ? t.dataset.state : null;",
            id);
  }

  private static boolean tileHasMaintenance(String id) {
    return Boolean.TRUE.equals(
        browser.js(
            "const t = document.querySelector(`li.node[data-id=\"${arguments[0]}\"]`);"
                + " return !!(t && t.querySelector('.maint'));",
            id));
  }

  private static void signIn(String token, String expectWho) {
    browser.await("the sign-in form", Duration.ofSeconds(20), () -> present("#token"));
    find("#token").sendKeys(token);
    find("#signin").click();
    browser.await(
        "signed in as " + expectWho,
        Duration.ofSeconds(20),
        () -> find("#who").isDisplayed() && find("#who").getText().equals(expectWho));
  }

  private static void view(String hash) {
    browser.js("location.hash = arguments[0]", hash);
  }

  private static void maintenance(String id, boolean on) throws Exception {
    HttpResponse<String> r =
        call(
            "PATCH",
            "/api/v1/nodes/" + id,
            adminToken,
            on ? "{\"maintenance\":true}" : "{\"maintenance\":null}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  @Test
  @Order(1)
  void signInShowsTheDemoFleetInItsRacks() {
    long start = System.nanoTime();
    browser.driver.get(page + "/");
    assertThat(browser.driver.getCurrentUrl()).isEqualTo(page + "/ui/");
    browser.await("the sign-in form", Duration.ofSeconds(20), () -> present("#token"));
    find("#token").sendKeys("bml_not-a-valid-token");
    find("#signin").click();
    browser.await(
        "the refusal",
        Duration.ofSeconds(10),
        () -> find("#signin-error").getText().contains("not valid"));
    signIn(adminToken, "demo-admin (admin)");
    browser.await(
        "24 nodes",
        Duration.ofSeconds(30),
        () -> browser.driver.findElements(By.cssSelector("#racks li.node")).size() == 24);
    System.out.printf("console: signed in and showed 24 nodes in %d ms%n", millis(start));

    for (DemoFleet.Server s : DemoFleet.servers()) {
      assertThat(
              present(".rack[data-rack=\"" + s.rack() + "\"] li.node[data-id=\"" + s.id() + "\"]"))
          .as("%s in rack %s", s.id(), s.rack())
          .isTrue();
    }
    assertThat(browser.driver.findElements(By.cssSelector(".rack")))
        .extracting(e -> e.getAttribute("data-rack"))
        .containsExactly("r1", "r2", "r3");
    // Each tile says its state in words and with a shape, not only in colour.
    WebElement tile = find("#racks li.node");
    assertThat(tile.findElement(By.cssSelector(".state")).getText()).isNotBlank();
    assertThat(
            browser.js(
                "return getComputedStyle(document.querySelector('#racks li.node a'), '::before')"
                    + ".content"))
        .asString()
        .matches("\"[○▲◐●▽▼✖?]\"");

    // The token is nowhere the page can reach: not in the URL, storage or a readable cookie.
    assertThat(browser.driver.getCurrentUrl()).doesNotContain(adminToken);
    assertThat(browser.js("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage)"))
        .isEqualTo("{}{}");
    assertThat(browser.js("return document.cookie")).isEqualTo("");
    assertThat(browser.driver.getPageSource()).doesNotContain(adminToken);
    Cookie cookie = browser.driver.manage().getCookieNamed("bamel-session");
    assertThat(cookie.isHttpOnly()).isTrue();
    assertThat(cookie.getSameSite()).isEqualTo("Strict");
    assertThat(cookie.getValue()).doesNotContain(adminToken);
  }

  @Test
  @Order(2)
  void aPowerOnThroughTheApiShowsOffPoweringOnAndReadyWithoutAReload() throws Exception {
    String id = null;
    for (JsonNode n : get("/api/v1/nodes?pool=gpu&state=off").path("items")) {
      if (n.path("spec").path("powerState").asText("off").equals("off")) {
        id = n.path("id").asText();
        break;
      }
    }
    assertThat(id).as("a gpu node that is off").isNotNull();
    poweredOn = id;
    String node = id;
    browser.await(
        "the tile shows off", Duration.ofSeconds(10), () -> "off".equals(tileState(node)));
    browser.js(
        "window.__notReloaded = true; window.__seen = [];"
            + "const id = arguments[0];"
            + "const record = () => {"
            + "  const t = document.querySelector(`li.node[data-id=\"${id}\"]`);"
            + "  if (t && window.__seen.at(-1) !== t.dataset.state) window.__seen.push(t.dataset.state);"
            + "};"
            + "record();"
            + "new MutationObserver(record).observe(document.getElementById('racks'),"
            + "  {subtree: true, childList: true, attributes: true});",
        id);
    long start = System.nanoTime();
    HttpResponse<String> r =
        call("POST", "/api/v1/nodes/" + id + "/power", adminToken, "{\"state\":\"on\"}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    browser.await(
        id + " ready on the page", Duration.ofSeconds(120), () -> "ready".equals(tileState(node)));
    @SuppressWarnings("unchecked")
    List<String> seen = (List<String>) browser.js("return window.__seen");
    System.out.printf("console: %s went %s on the page in %d ms%n", id, seen, millis(start));
    assertThat(seen.get(0)).isEqualTo("off");
    assertThat(seen).contains("powering-on");
    assertThat(seen.indexOf("powering-on")).isLessThan(seen.lastIndexOf("ready"));
    assertThat(seen.get(seen.size() - 1)).isEqualTo("ready");
    assertThat(browser.js("return window.__notReloaded === true")).isEqualTo(true);
  }

  @Test
  @Order(3)
  void aChangeInEtcdReachesThePageWithinASecond() throws Exception {
    String id = DemoFleet.servers().get(0).id();
    long worst = 0;
    for (int i = 0; i < 3; i++) {
      maintenance(id, true);
      long start = System.nanoTime();
      browser.await("maintenance shown", Duration.ofSeconds(10), () -> tileHasMaintenance(id));
      long ms = millis(start);
      worst = Math.max(worst, ms);
      maintenance(id, false);
      browser.await("maintenance gone", Duration.ofSeconds(10), () -> !tileHasMaintenance(id));
      System.out.printf("console: a change reached the page %d ms after its write%n", ms);
    }
    // The target is one second; the bound leaves room for a loaded test machine.
    assertThat(worst).isLessThan(3_000);
  }

  @Test
  @Order(4)
  void aPoolsNumbersEqualTheApi() throws Exception {
    view("#/pools");
    for (String pool : List.of(DemoFleet.GENERAL, DemoFleet.GPU)) {
      browser.await(
          "pool " + pool + " as the API shows it",
          Duration.ofSeconds(30),
          () -> {
            try {
              return samePool(pool);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
    }
  }

  /** Whether the page shows the same status revision as the API, and then the same numbers. */
  private static boolean samePool(String pool) throws Exception {
    JsonNode p = get("/api/v1/pools/" + pool);
    // One read of the card: the view re-renders while the test looks.
    @SuppressWarnings("unchecked")
    Map<String, String> shown =
        (Map<String, String>)
            browser.js(
                "const card = document.querySelector(`.pool[data-pool=\"${arguments[0]}\"]`);"
                    + " if (!card) return null;"
                    + " const out = {revision: card.dataset.statusRevision};"
                    + " for (const f of card.querySelectorAll('[data-field]'))"
                    + "   out[f.dataset.field] = f.textContent;"
                    + " return out;",
                pool);
    if (shown == null || !p.path("statusRevision").asText().equals(shown.get("revision"))) {
      return false;
    }
    JsonNode s = p.path("status");
    JsonNode c = p.path("config");
    Map<String, String> expected =
        Map.of(
            "readyNodes", s.path("readyNodes").asText(),
            "desiredNodes", s.path("desiredNodes").asText(),
            "pendingNodes", s.path("pendingNodes").asText(),
            "pendingPods", s.path("pendingPods").asText(),
            "minNodes", c.path("minNodes").asText(),
            "maxNodes", c.path("maxNodes").asText(),
            "members", Integer.toString(p.path("members").size()));
    for (Map.Entry<String, String> e : expected.entrySet()) {
      assertThat(shown.get(e.getKey())).as("%s %s", pool, e.getKey()).isEqualTo(e.getValue());
    }
    for (var u : s.path("utilization").properties()) {
      assertThat(shown.get("utilization." + u.getKey()))
          .as("%s utilization %s", pool, u.getKey())
          .isEqualTo(Math.round(u.getValue().asDouble() * 100) + "%");
    }
    System.out.printf(
        "console: pool %s at status revision %s matches the API: %s%n",
        pool, p.path("statusRevision").asText(), expected);
    return true;
  }

  @Test
  @Order(5)
  void aDroppedWatchReconnectsAndCatchesUp() throws Exception {
    view("#/fleet");
    browser.await(
        "live",
        Duration.ofSeconds(20),
        () -> "live".equals(find("#live").getAttribute("data-state")));
    String id = DemoFleet.servers().get(1).id();
    assertThat(tileHasMaintenance(id)).isFalse();
    proxy.refuse(true);
    proxy.cut();
    int before = proxy.requests().size();
    browser.await(
        "the page says it is reconnecting",
        Duration.ofSeconds(20),
        () ->
            "reconnecting".equals(find("#live").getAttribute("data-state"))
                && find("#live").getText().contains("reconnecting"));
    maintenance(id, true);
    Thread.sleep(1_500);
    assertThat(tileHasMaintenance(id)).as("a page without network cannot know yet").isFalse();
    long start = System.nanoTime();
    proxy.refuse(false);
    browser.await(
        "live again",
        Duration.ofSeconds(20),
        () -> "live".equals(find("#live").getAttribute("data-state")));
    browser.await("the missed change", Duration.ofSeconds(10), () -> tileHasMaintenance(id));
    System.out.printf(
        "console: reconnected and caught up %d ms after the network returned%n", millis(start));
    List<String> after = proxy.requests().subList(before, proxy.requests().size());
    assertThat(after).anyMatch(l -> l.startsWith("GET /api/v1/watch?since="));
    assertThat(after).noneMatch(l -> l.startsWith("GET /api/v1/nodes"));
    maintenance(id, false);
    browser.await("maintenance gone", Duration.ofSeconds(10), () -> !tileHasMaintenance(id));
  }

  @Test
  @Order(6)
  void takesTheReadmeScreenshot() throws Exception {
    view("#/fleet");
    browser.await(
        "24 nodes",
        Duration.ofSeconds(10),
        () -> browser.driver.findElements(By.cssSelector("#racks li.node")).size() == 24);
    Thread.sleep(500);
    Screenshots.save(browser.screenshot(), "console.png", 1280, contentBottom("#racks"));
    view("#/pools");
    browser.await("pools", Duration.ofSeconds(10), () -> present(".pool svg.chart"));
    Thread.sleep(500);
    Screenshots.save(
        browser.screenshot(),
        "console-pools.png",
        1280,
        contentBottom(".pool[data-pool=\"general\"] .charts"));
  }

  /** The bottom of the element {@code css} in window pixels, plus a margin. */
  private static int contentBottom(String css) {
    return ((Number)
                browser.js(
                    "return Math.ceil(document.querySelector(arguments[0]).getBoundingClientRect()"
                        + ".bottom)",
                    css))
            .intValue()
        + 16;
  }

  @Test
  @Order(7)
  void thePagesOwnPowerActionsAreConfirmedAndSentWithIfMatch() throws Exception {
    String id = poweredOn != null ? poweredOn : DemoFleet.servers().get(20).id();
    long revision = get("/api/v1/nodes/" + id).path("revision").asLong();
    view("#/node/" + id);
    browser.await(
        "power buttons", Duration.ofSeconds(10), () -> present("button[data-action=\"off\"]"));
    find("button[data-action=\"off\"]").click();
    browser.await("the confirmation", Duration.ofSeconds(5), () -> find("#confirm").isDisplayed());
    assertThat(find("#confirm-text").getText()).contains("Power off " + id);
    find("#confirm button[value=\"cancel\"]").click();
    Thread.sleep(500);
    assertThat(get("/api/v1/nodes/" + id).path("revision").asLong()).isEqualTo(revision);

    find("button[data-action=\"pool\"]").click();
    browser.await("the confirmation", Duration.ofSeconds(5), () -> find("#confirm").isDisplayed());
    assertThat(find("#confirm-text").getText()).contains(id).contains("gpu");
    find("#confirm-ok").click();
    browser.await(
        "the node handed back to its pool",
        Duration.ofSeconds(10),
        () -> {
          try {
            return get("/api/v1/nodes/" + id)
                .path("spec")
                .path("powerPolicy")
                .asText()
                .equals("pool");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    JsonNode events = get("/api/v1/nodes/" + id + "/events").path("items");
    assertThat(events.get(events.size() - 1).path("principal").asText()).isEqualTo("demo-admin");
    browser.await(
        "the timeline shows it",
        Duration.ofSeconds(10),
        () -> find(".timeline").getText().toLowerCase(Locale.ROOT).contains("demo-admin"));
  }

  @Test
  @Order(8)
  void signingOutEndsTheSessionAndAReadOnlyTokenCannotWrite() throws Exception {
    String id = DemoFleet.servers().get(2).id();
    String oldCookie = browser.driver.manage().getCookieNamed("bamel-session").getValue();
    find("#signout").click();
    browser.await("signed out", Duration.ofSeconds(10), () -> present("#token"));
    assertThat(find("#signin-note").getText()).contains("Signed out");
    HttpResponse<String> stale =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(api + "/api/v1/nodes"))
                .header("Cookie", "bamel-session=" + oldCookie)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(stale.statusCode()).isEqualTo(401);

    signIn(READ_TOKEN, "viewer (read)");
    view("#/node/" + id);
    browser.await("the node page", Duration.ofSeconds(10), () -> present("#node .readonly"));
    assertThat(present("button[data-action]")).isFalse();
    assertThat(find("#node .readonly").getText()).contains("scope write");
    long revision = get("/api/v1/nodes/" + id).path("revision").asLong();

    // A forged write from the page itself, with the session's own CSRF token: the scope refuses it.
    Object withCsrf =
        browser.jsAsync(
            "const done = arguments[arguments.length - 1];"
                + "fetch('/api/v1/session').then(r => r.json()).then(s =>"
                + "  fetch(`/api/v1/nodes/${arguments[0]}/power`, {method: 'POST',"
                + "    headers: {'Content-Type': 'application/json', 'X-CSRF-Token': s.csrfToken},"
                + "    body: '{\"state\":\"on\"}'})).then(r => done(r.status), e => done(String(e)));",
            id);
    Object withoutCsrf =
        browser.jsAsync(
            "const done = arguments[arguments.length - 1];"
                + "fetch(`/api/v1/nodes/${arguments[0]}/power`, {method: 'POST',"
                + "  headers: {'Content-Type': 'application/json'}, body: '{\"state\":\"on\"}'})"
                + ".then(r => done(r.status), e => done(String(e)));",
            id);
    assertThat(withCsrf).isEqualTo(403L);
    assertThat(withoutCsrf).isEqualTo(403L);
    assertThat(get("/api/v1/nodes/" + id).path("revision").asLong()).isEqualTo(revision);
  }

  @Test
  @Order(9)
  void thePageRaisedNoErrorsAndNoPolicyViolations() {
    // Script errors and Content-Security-Policy refusals (an inline style, say) are SEVERE.
    assertThat(browser.consoleErrors()).isEmpty();
  }

  /** Where screenshots go: target/, and the README's images when asked for. */
  static final class Screenshots {
    private Screenshots() {}

    /** Saves the window's PNG cut to the page's content: {@code width} x {@code height} pixels. */
    static void save(byte[] png, String name, int width, int height) throws Exception {
      java.awt.image.BufferedImage full =
          javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(png));
      java.awt.image.BufferedImage cut =
          full.getSubimage(
              0, 0, Math.min(width, full.getWidth()), Math.min(height, full.getHeight()));
      Path target = Path.of("target", name);
      javax.imageio.ImageIO.write(cut, "png", target.toFile());
      System.out.printf(
          "console: screenshot %s (%d bytes)%n", target.toAbsolutePath(), Files.size(target));
      String docs = System.getProperty("bamel.screenshots");
      if (docs != null && !docs.isBlank()) {
        Path file = Path.of(docs).resolve(name);
        Files.createDirectories(file.getParent());
        Files.copy(target, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
