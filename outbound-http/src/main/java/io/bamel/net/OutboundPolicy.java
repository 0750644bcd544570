package io.bamel.net;

import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Optional;

/**
 * The one policy of every HTTP client bamel runs (Redfish, Proxmox, NetBox, Prometheus,
 * Kubernetes), so that a server bamel calls, or whoever answers in its place, cannot send bamel's
 * requests, or the secrets they carry, anywhere else:
 *
 * <ul>
 *   <li><b>No redirect is followed.</b> A 3xx answer whose {@code Location} names another origin
 *       (scheme, host and port) is refused with a {@link RedirectRefusedException} ("refused
 *       redirect to another origin ..."); one within the same origin is handed to the caller as the
 *       answer it is, which each client reports as an unexpected status. The client itself never
 *       follows one, so nothing is sent to the other origin: not a request, not a connection.
 *   <li><b>No proxy unless configured.</b> The JVM's default proxy selector (system properties, and
 *       the environment where {@code java.net.useSystemProxies} is set) never applies: {@link
 *       #NO_PROXY}.
 * </ul>
 *
 * Pinning a host's checked addresses and checking a credential's allow-list before it is sent stay
 * with the clients that hold secrets for hosts chosen by the inventory (the power drivers: {@code
 * io.bamel.power.net.PinnedDns}); this class is plain JDK so that every module can use it.
 */
public final class OutboundPolicy {

  /** A proxy selector that never selects a proxy: direct connections only. */
  public static final ProxySelector NO_PROXY = HttpClient.Builder.NO_PROXY;

  private OutboundPolicy() {}

  /**
   * A JDK client builder with the policy applied: redirects never followed, no proxy unless {@code
   * proxy} is configured.
   */
  public static HttpClient.Builder apply(
      HttpClient.Builder builder, Optional<ProxySelector> proxy) {
    return builder.followRedirects(HttpClient.Redirect.NEVER).proxy(proxy.orElse(NO_PROXY));
  }

  /** {@link #apply(HttpClient.Builder, Optional)} without a proxy. */
  public static HttpClient.Builder apply(HttpClient.Builder builder) {
    return apply(builder, Optional.empty());
  }

  /**
   * Checks an answer to a request for {@code requested}: a redirect ({@code 3xx} with a {@code
   * Location}) to another origin is refused.
   *
   * @param location the answer's {@code Location} header, or null
   * @throws RedirectRefusedException naming the other origin
   */
  public static void checkAnswer(URI requested, int status, String location)
      throws RedirectRefusedException {
    if (status < 300 || status > 399 || location == null || location.isBlank()) {
      return;
    }
    URI target;
    try {
      target = requested.resolve(location.strip());
    } catch (IllegalArgumentException e) {
      throw new RedirectRefusedException("an unreadable Location", requested);
    }
    if (!origin(target).equals(origin(requested))) {
      throw new RedirectRefusedException(origin(target), requested);
    }
  }

  /** {@link #checkAnswer(URI, int, String)} for an answer of the JDK client. */
  public static void checkAnswer(HttpResponse<?> response) throws RedirectRefusedException {
    checkAnswer(
        response.request().uri(),
        response.statusCode(),
        response.headers().firstValue("Location").orElse(null));
  }

  /**
   * The origin of {@code uri}: scheme, host and port in lower case with the port explicit ({@code
   * https://bmc.example:443}); a URI without scheme or host is its own text.
   */
  public static String origin(URI uri) {
    String scheme = uri.getScheme();
    String host = uri.getHost();
    if (scheme == null || host == null) {
      return uri.toString();
    }
    scheme = scheme.toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    if (port < 0) {
      port = scheme.equals("https") ? 443 : scheme.equals("http") ? 80 : -1;
    }
    return scheme + "://" + host.toLowerCase(Locale.ROOT) + (port < 0 ? "" : ":" + port);
  }
}
