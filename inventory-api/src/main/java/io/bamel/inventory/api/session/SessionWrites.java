package io.bamel.inventory.api.session;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a request authenticated by a session cookie may change anything: the CSRF defence of the
 * console. Pure. Reads ({@code GET}, {@code HEAD}, {@code OPTIONS}) always may. Any other method
 * needs all of:
 *
 * <ul>
 *   <li>an {@code Origin} header naming this server: its host and port equal to the request's
 *       {@code Host} header (a browser sends {@code Origin} with every such request; a page of
 *       another site names its own origin);
 *   <li>no {@code Sec-Fetch-Site} other than {@code same-origin} (browsers that send it say where
 *       the request came from);
 *   <li>the session's CSRF token in {@value ConsoleSession#CSRF_HEADER}, compared in constant time
 *       (a page of another site cannot read it, and cannot set the header without a CORS preflight,
 *       which bamel never grants).
 * </ul>
 *
 * The session cookie is {@code SameSite=Strict} besides, so a browser does not send it with a
 * request another site starts at all; these checks hold even where it would.
 */
public final class SessionWrites {

  private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

  private SessionWrites() {}

  /**
   * Why a request must be refused, or null when it may proceed.
   *
   * @param method the HTTP method
   * @param origin the {@code Origin} header, or null
   * @param host the {@code Host} header, or null
   * @param fetchSite the {@code Sec-Fetch-Site} header, or null
   * @param csrfHeader the {@value ConsoleSession#CSRF_HEADER} header, or null
   * @param csrfToken the session's CSRF token
   */
  public static String refusal(
      String method,
      String origin,
      String host,
      String fetchSite,
      String csrfHeader,
      String csrfToken) {
    if (SAFE.contains(method)) {
      return null;
    }
    String originProblem = originRefusal(origin, host);
    if (originProblem != null) {
      return originProblem;
    }
    if (fetchSite != null && !fetchSite.equals("same-origin")) {
      return "a write from the console must come from its own page (Sec-Fetch-Site: "
          + Texts.clip(fetchSite)
          + ")";
    }
    if (csrfHeader == null || csrfHeader.isEmpty()) {
      return "a write from the console must send the session's "
          + ConsoleSession.CSRF_HEADER
          + " header";
    }
    if (!MessageDigest.isEqual(
        csrfHeader.getBytes(StandardCharsets.UTF_8), csrfToken.getBytes(StandardCharsets.UTF_8))) {
      return "the " + ConsoleSession.CSRF_HEADER + " header does not match the session";
    }
    return null;
  }

  /**
   * Why a request's {@code Origin} is not this server, or null when it is: the origin's host and
   * port (its scheme's default port when it names none) must equal the {@code Host} header's.
   */
  static String originRefusal(String origin, String host) {
    if (origin == null || origin.isEmpty()) {
      return "a write from the console must send an Origin header";
    }
    if (host == null || host.isEmpty()) {
      return "the request has no Host header to compare its Origin with";
    }
    URI uri;
    try {
      uri = new URI(origin);
    } catch (java.net.URISyntaxException e) {
      return "the Origin header is not an origin: " + Texts.clip(origin);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawPath() != null && !uri.getRawPath().isEmpty()) {
      return "the Origin header is not an origin: " + Texts.clip(origin);
    }
    int defaultPort = scheme.equals("https") ? 443 : 80;
    String originAuthority =
        uri.getHost().toLowerCase(Locale.ROOT)
            + ":"
            + (uri.getPort() < 0 ? defaultPort : uri.getPort());
    String hostAuthority = authority(host.toLowerCase(Locale.ROOT), defaultPort);
    if (!originAuthority.equals(hostAuthority)) {
      return "cross-origin request refused: Origin " + Texts.clip(origin) + " is not this server";
    }
    return null;
  }

  /** {@code host:port} of a Host header, the port defaulted. */
  private static String authority(String host, int defaultPort) {
    int colon = host.lastIndexOf(':');
    boolean bracketed = host.startsWith("[");
    if (colon < 0 || bracketed && colon < host.indexOf(']')) {
      return host + ":" + defaultPort;
    }
    return host;
  }

  /** Short, printable text for messages. */
  private static final class Texts {
    static String clip(String s) {
      String cut = s.length() > 64 ? s.substring(0, 64) + "..." : s;
      return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
  }
}
