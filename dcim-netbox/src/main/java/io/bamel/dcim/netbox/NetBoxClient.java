package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import io.bamel.inventory.runtime.Retries;
import io.bamel.inventory.store.Codec;
import io.bamel.net.OutboundPolicy;
import io.bamel.net.RedirectRefusedException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NetBox's REST API over HTTP(S): {@code GET} a list page or an object, {@code PATCH} a list
 * (NetBox's bulk update). Every request carries the token ({@link NetBoxToken}) and goes to the
 * configured NetBox only: a {@code next} link is followed by its path and query on the configured
 * scheme, host and port (NetBox builds it from the Host header it saw, which behind a proxy is not
 * the address bamel uses) and must stay under the configured base path; redirects are not followed.
 * A {@code 429} or {@code 503} is retried after its {@code Retry-After} (or a growing pause), as
 * are connection failures and {@code 502}/{@code 504}, up to {@link Retry#attempts()}; a {@code
 * Retry-After} longer than {@link Retry#maxWait()} fails at once. Any other non-2xx answer fails
 * with {@link NetBoxException}; 401 and 403 say the token was refused. Thread-safe.
 */
public final class NetBoxClient {

  private static final Logger LOG = LoggerFactory.getLogger(NetBoxClient.class);

  /**
   * When to try a request again.
   *
   * @param attempts tries in all, at least 1
   * @param firstPause the pause after the first failure without {@code Retry-After}; doubled after
   *     each further one, up to {@code maxWait} (the policy of {@code Retries#remoteCall})
   * @param maxWait the longest {@code Retry-After} honoured
   */
  public record Retry(int attempts, Duration firstPause, Duration maxWait) {

    /** Five tries, pauses from 1 s, {@code Retry-After} up to 2 minutes. */
    public static final Retry DEFAULTS = new Retry(5, Duration.ofSeconds(1), Duration.ofMinutes(2));
  }

  /** A response: NetBox's JSON and its {@code API-Version} header (null when absent). */
  public record Answer(JsonNode body, String apiVersion) {}

  private final URI base;
  private final String basePath;
  private final NetBoxToken token;
  private final Duration timeout;
  private final Retry retry;
  private final RetryPolicy<Object> retries;
  private final Clock clock;
  private final HttpClient http;

  /**
   * A client of the NetBox at {@code base} (its root URL, such as {@code https://192.0.2.30}, or
   * with a base path).
   *
   * @param caFile a PEM CA bundle to trust instead of the system's (null: the system's)
   */
  public NetBoxClient(
      URI base, NetBoxToken token, Path caFile, Duration timeout, Retry retry, Clock clock) {
    String text = base.toString();
    this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    this.basePath = this.base.getRawPath() == null ? "" : this.base.getRawPath();
    this.token = token;
    this.timeout = timeout;
    this.retry = retry;
    // Pauses double up to the longest Retry-After honoured (a fixed pause if that is shorter).
    this.retries =
        Retries.remoteCall(
                retry.attempts(),
                retry.firstPause(),
                retry.maxWait().compareTo(retry.firstPause()) > 0
                    ? retry.maxWait()
                    : retry.firstPause())
            .build();
    this.clock = clock;
    // No redirect followed, no proxy: the token goes to the configured NetBox only.
    HttpClient.Builder b = OutboundPolicy.apply(HttpClient.newBuilder().connectTimeout(timeout));
    if (caFile != null) {
      b.sslContext(TrustedCa.context(caFile));
    }
    if ("http".equalsIgnoreCase(this.base.getScheme())) {
      // Plain HTTP/1.1, no h2c upgrade attempt (as curl and NetBox's own clients speak to it).
      b.version(HttpClient.Version.HTTP_1_1);
    }
    this.http = b.build();
  }

  /** The configured NetBox root, without credentials. */
  public URI base() {
    return base;
  }

  /** {@code path} (from {@code /api/...}) with {@code query} parameters, encoded. */
  public static String path(String path, List<Map.Entry<String, String>> query) {
    StringBuilder b = new StringBuilder(path);
    char sep = path.contains("?") ? '&' : '?';
    for (Map.Entry<String, String> q : query) {
      b.append(sep)
          .append(URLEncoder.encode(q.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(q.getValue(), StandardCharsets.UTF_8));
      sep = '&';
    }
    return b.toString();
  }

  /**
   * The request path of a {@code next} link, relative to the configured root (its path and query).
   *
   * @throws NetBoxException when the link leaves NetBox's API under the configured base path
   */
  public String relative(String link) {
    URI next;
    try {
      next = URI.create(link);
    } catch (IllegalArgumentException e) {
      throw new NetBoxException("NetBox sent a next link that is no URL", 0);
    }
    String path = next.getRawPath() == null ? "" : next.getRawPath();
    if (!path.startsWith(basePath + "/api/")) {
      throw new NetBoxException(
          "NetBox sent a next link outside its API under " + base + " (path " + path + ")", 0);
    }
    String rel = path.substring(basePath.length());
    return next.getRawQuery() == null ? rel : rel + "?" + next.getRawQuery();
  }

  /** {@code GET} of {@code path} (from {@code /api/...}, query included). */
  public Answer get(String path) {
    return send("GET", path, null);
  }

  /** {@code PATCH} of {@code path} with a JSON body (a list for a bulk update). */
  public Answer patch(String path, JsonNode body) {
    return send("PATCH", path, Codec.mapper().valueToTree(body).toString());
  }

  private Answer send(String method, String path, String json) {
    URI uri = URI.create(base + path);
    Execution<Object> tries = Execution.of(retries);
    String shown = method + " " + path;
    NetBoxException last = null;
    for (int attempt = 1; attempt <= Math.max(1, retry.attempts()); attempt++) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri)
              .timeout(timeout)
              .header("Authorization", token.header())
              .header("Accept", "application/json")
              .header("User-Agent", "bamel");
      if (json != null) {
        b.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
      } else {
        b.method(method, HttpRequest.BodyPublishers.noBody());
      }
      Duration wait;
      try {
        HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        refuseRedirectElsewhere(shown, r);
        int code = r.statusCode();
        if (code / 100 == 2) {
          return new Answer(
              parse(r.body(), shown), r.headers().firstValue("API-Version").orElse(null));
        }
        last = refusal(shown, code, r.body());
        if (code != 429 && code != 502 && code != 503 && code != 504) {
          throw last;
        }
        Duration asked =
            RetryAfter.parse(r.headers().firstValue("Retry-After").orElse(null), clock.instant());
        if (asked != null && asked.compareTo(retry.maxWait()) > 0) {
          throw new NetBoxException(
              shown
                  + ": NetBox answered HTTP "
                  + code
                  + " asking to retry after "
                  + asked.toSeconds()
                  + " s, longer than bamel waits; the next pull tries again",
              code);
        }
        wait = asked;
      } catch (IOException e) {
        last = new NetBoxException(shown + ": cannot reach NetBox at " + base + ": " + why(e), e);
        wait = null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NetBoxException(shown + ": interrupted", e);
      }
      tries.recordException(last);
      if (!tries.isComplete()) {
        wait = wait != null ? wait : tries.getDelay();
        LOG.info(
            "{} failed ({}); trying again in {} ms", shown, last.getMessage(), wait.toMillis());
        sleep(wait);
      }
    }
    throw last;
  }

  /** A redirect to another origin ends the call at once: trying again would meet it again. */
  private static void refuseRedirectElsewhere(String shown, HttpResponse<?> r) {
    try {
      OutboundPolicy.checkAnswer(r);
    } catch (RedirectRefusedException e) {
      throw new NetBoxException(shown + ": " + e.getMessage(), r.statusCode());
    }
  }

  /** What went wrong with a connection, for a person (no exception class names). */
  private String why(IOException e) {
    if (e instanceof java.net.http.HttpTimeoutException) {
      return "no answer within " + timeout.toSeconds() + " s";
    }
    if (e instanceof java.net.ConnectException) {
      return "the connection was refused";
    }
    if (e instanceof java.net.UnknownHostException) {
      return "the host name does not resolve";
    }
    if (e instanceof javax.net.ssl.SSLException) {
      return "TLS failed (is netbox.caFile the CA of NetBox's certificate?)";
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? "the connection failed" : m.replaceAll("[^\\x20-\\x7e]", "?");
  }

  private static NetBoxException refusal(String shown, int code, byte[] body) {
    String detail = "";
    try {
      JsonNode n = Codec.mapper().readTree(body);
      if (n != null && n.hasNonNull("detail")) {
        detail = n.get("detail").asText().replaceAll("[^\\x20-\\x7e]", "?");
        detail = ": " + (detail.length() > 200 ? detail.substring(0, 200) + "..." : detail);
      }
    } catch (IOException | RuntimeException e) {
      detail = "";
    }
    if (code == 401 || code == 403) {
      return new NetBoxException(
          shown
              + ": NetBox refused the token (HTTP "
              + code
              + detail
              + "); check netbox.tokenFile and that the token may read devices and interfaces"
              + " (and change devices, for report-back)",
          code);
    }
    return new NetBoxException(shown + ": NetBox answered HTTP " + code + detail, code);
  }

  private static JsonNode parse(byte[] body, String shown) {
    try {
      return body.length == 0 ? Codec.mapper().nullNode() : Codec.mapper().readTree(body);
    } catch (IOException e) {
      throw new NetBoxException(shown + ": NetBox's answer is not JSON", 0);
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NetBoxException("interrupted while waiting to retry", e);
    }
  }
}
