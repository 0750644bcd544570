package io.bamel.inventory.api;

import io.bamel.inventory.api.security.Access;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import java.util.Map;
import java.util.Set;

/**
 * The web console's files: plain ES modules, CSS and one HTML page, a resource directory next to
 * this class ({@value #DIRECTORY}), served by Javalin's static file handler at {@value #PATH}
 * without a token (they hold no data; the page signs in and then reads the API with its session
 * cookie). {@code /} redirects there. Every file goes with a Content-Security-Policy that allows
 * only this server's own scripts, styles and connections (no inline script, no other origin, no
 * framing), {@code nosniff}, no referrer, and {@code no-cache} (revalidated, so a new bamel's files
 * are used at once). A path with {@code ..}, escapes, backslashes or empty segments is never looked
 * up.
 */
final class ConsoleAssets {

  /** Where the console is served. */
  static final String PATH = "/ui";

  /** The classpath directory of its files. */
  static final String DIRECTORY = "/io/bamel/inventory/api/console";

  /** The policy of every console response. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  static final Map<String, String> HEADERS =
      Map.of(
          "Content-Security-Policy", CONTENT_SECURITY_POLICY,
          "X-Content-Type-Options", "nosniff",
          "Referrer-Policy", "no-referrer",
          "X-Frame-Options", "DENY",
          "Cache-Control", "no-cache");

  private ConsoleAssets() {}

  /** Adds the console's files to the Javalin configuration. */
  static void configure(JavalinConfig config) {
    config.staticFiles.add(
        files -> {
          files.hostedPath = PATH;
          files.directory = DIRECTORY;
          files.location = Location.CLASSPATH;
          files.roles = Set.of(Access.PUBLIC);
          files.headers = HEADERS;
          // The files' names are plain: a path with dots, escapes or backslashes names none of
          // them (and must not reach the resource lookup, which fails on /../).
          files.skipFileFunction = ConsoleAssets::odd;
        });
  }

  /** Whether a request's path cannot name a console file. */
  static boolean odd(jakarta.servlet.http.HttpServletRequest request) {
    String uri = request.getRequestURI();
    return uri.contains("..") || uri.contains("%") || uri.contains("\\") || uri.contains("//");
  }

  /** {@code GET /}: to the console's page. */
  static void redirect(Context ctx) {
    HEADERS.forEach(ctx::header);
    ctx.redirect(PATH + "/", HttpStatus.FOUND);
  }
}
