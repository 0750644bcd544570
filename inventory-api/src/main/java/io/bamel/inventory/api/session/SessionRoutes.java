package io.bamel.inventory.api.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.http.ApiContext;
import io.bamel.inventory.api.http.Bodies;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.security.Authentication;
import io.bamel.inventory.api.security.Principal;
import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Texts;
import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The console's sign-in: {@code POST /api/v1/session} exchanges a pasted token (in the body, never
 * a URL) for a session cookie; {@code GET} tells the page who it is signed in as and gives it the
 * CSRF token again (after a reload); {@code DELETE} signs out. The cookie is {@code HttpOnly},
 * {@code SameSite=Strict}, {@code Path=/}, expires with the session, and under TLS is {@code
 * Secure} and named with the {@code __Host-} prefix (so no other host or path can set it). Programs
 * keep using {@code Authorization: Bearer}; {@link Authentication} accepts the cookie as well, and
 * {@link SessionWrites} guards the writes it authenticates.
 */
public final class SessionRoutes {

  /** The cookie's name over plain HTTP. */
  static final String PLAIN_COOKIE = "bamel-session";

  /** The cookie's name under TLS: the {@code __Host-} prefix binds it to this host and path. */
  static final String SECURE_COOKIE = "__Host-bamel-session";

  private final ApiContext api;
  private final ConsoleSessions sessions;
  private final TokenStore tokens;
  private final boolean secure;

  public SessionRoutes(
      ApiContext api, ConsoleSessions sessions, TokenStore tokens, boolean secure) {
    this.api = api;
    this.sessions = sessions;
    this.tokens = tokens;
    this.secure = secure;
  }

  /** The session cookie's name on this server. */
  public static String cookieName(boolean secure) {
    return secure ? SECURE_COOKIE : PLAIN_COOKIE;
  }

  public void create(Context ctx) {
    ApiContext.query(ctx, Set.of());
    noStore(ctx);
    String origin = ctx.header("Origin");
    if (origin != null) {
      String refusal = SessionWrites.originRefusal(origin, ctx.header("Host"));
      if (refusal != null) {
        throw Problems.forbidden(refusal);
      }
    }
    String token = token(api.json(ctx, Bodies.JSON));
    Principal principal =
        tokens
            .authenticate(token)
            .orElseThrow(() -> Problems.unauthenticated("the token is not valid"));
    ConsoleSessions.Created created = sessions.create(principal);
    ctx.cookie(cookie(created.cookieValue(), maxAge(created.session())));
    ApiContext.answer(ctx, 201, view(created.session()));
  }

  public void get(Context ctx) {
    ApiContext.query(ctx, Set.of());
    noStore(ctx);
    ConsoleSession session =
        sessions
            .find(ctx.cookie(cookieName(secure)))
            .orElseThrow(() -> Problems.unauthenticated("not signed in; sign in with a token"));
    ApiContext.answer(ctx, 200, view(session));
  }

  public void delete(Context ctx) {
    ApiContext.query(ctx, Set.of());
    noStore(ctx);
    String value = ctx.cookie(cookieName(secure));
    ConsoleSession session = sessions.find(value).orElse(null);
    if (session != null) {
      String refusal =
          SessionWrites.refusal(
              "DELETE",
              ctx.header("Origin"),
              ctx.header("Host"),
              ctx.header("Sec-Fetch-Site"),
              ctx.header(ConsoleSession.CSRF_HEADER),
              session.csrfToken());
      if (refusal != null) {
        throw Problems.forbidden(refusal);
      }
      sessions.end(value);
    }
    ctx.cookie(cookie("", 0));
    ctx.status(204);
  }

  private Cookie cookie(String value, int maxAge) {
    return new Cookie(
        cookieName(secure), value, "/", maxAge, secure, 0, true, null, null, SameSite.STRICT);
  }

  private int maxAge(ConsoleSession session) {
    long seconds = Duration.between(session.created(), session.expiresAt()).toSeconds();
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds));
  }

  private static void noStore(Context ctx) {
    ctx.header("Cache-Control", "no-store");
  }

  /** {@code {"principal","scope","expiresAt","csrfToken"}}. */
  static Map<String, Object> view(ConsoleSession s) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("principal", s.principal().name());
    body.put("scope", s.principal().scope().scopeName());
    body.put("expiresAt", s.expiresAt().toString());
    body.put("csrfToken", s.csrfToken());
    return body;
  }

  /** The body's {@code token}: {@code {"token":"..."}} and nothing else. */
  static String token(JsonNode body) {
    if (!body.isObject()) {
      throw Problems.invalid("", "must be a JSON object such as {\"token\":\"bml_...\"}");
    }
    List<FieldError> errors = new ArrayList<>();
    String token = null;
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      JsonNode value = body.get(name);
      if (name.equals("token")) {
        if (value.isTextual() && !value.asText().isBlank() && value.asText().length() <= 512) {
          token = value.asText().strip();
        } else {
          errors.add(new FieldError("token", "must be the token as text"));
        }
      } else {
        errors.add(new FieldError(Texts.quote(name), "unknown field"));
      }
    }
    if (errors.isEmpty() && token == null) {
      errors.add(new FieldError("token", "is required"));
    }
    if (!errors.isEmpty()) {
      throw Problems.invalid("the sign-in request has invalid fields", errors);
    }
    return token;
  }
}
