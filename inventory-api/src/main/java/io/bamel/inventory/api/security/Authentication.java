package io.bamel.inventory.api.security;

import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.api.session.ConsoleSession;
import io.bamel.inventory.api.session.ConsoleSessions;
import io.bamel.inventory.api.session.SessionRoutes;
import io.bamel.inventory.api.session.SessionWrites;
import io.javalin.http.Context;
import io.javalin.security.RouteRole;
import java.util.Set;

/**
 * Checks the caller of every matched route against the {@link Access} it requires. The caller is
 * the bearer token's holder ({@code Authorization: Bearer}, for programs) or, without that header,
 * the console session named by the session cookie ({@link SessionRoutes}); a session's writes must
 * pass {@link SessionWrites} (Origin and CSRF token), else 403. No or an unknown token, or a cookie
 * naming no live session, is 401 (unless the route is public, or anonymous read is on and the route
 * only reads and no cookie was sent); a caller without the scope is 403. Puts the {@link Caller} on
 * the request, and the session (when one was used) as {@value #SESSION}.
 */
public final class Authentication {

  /** The request attribute holding the {@link ConsoleSession} that authenticated it, if any. */
  public static final String SESSION = "bamel.session";

  private final TokenStore tokens;
  private final boolean anonymousRead;
  private final ConsoleSessions sessions;
  private final String cookieName;

  public Authentication(
      TokenStore tokens, boolean anonymousRead, ConsoleSessions sessions, boolean secure) {
    this.tokens = tokens;
    this.anonymousRead = anonymousRead;
    this.sessions = sessions;
    this.cookieName = SessionRoutes.cookieName(secure);
  }

  public void check(Context ctx) {
    String requestId = ctx.res().getHeader(Caller.REQUEST_ID);
    Set<RouteRole> roles = ctx.routeRoles();
    Access need = roles.isEmpty() ? Access.ADMIN : (Access) roles.iterator().next();
    if (need == Access.PUBLIC) {
      ctx.attribute(Caller.ATTRIBUTE, new Caller(Principal.ANONYMOUS, requestId));
      return;
    }
    String header = ctx.header("Authorization");
    String cookie = header == null ? ctx.cookie(cookieName) : null;
    Principal principal;
    if (header != null) {
      if (header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw Problems.unauthenticated("the Authorization header must be Bearer <token>");
      }
      principal =
          tokens
              .authenticate(header.substring(7).trim())
              .orElseThrow(() -> Problems.unauthenticated("the token is not valid"));
    } else if (cookie != null) {
      ConsoleSession session =
          sessions
              .find(cookie)
              .orElseThrow(
                  () -> Problems.unauthenticated("the console session has ended; sign in again"));
      String refusal =
          SessionWrites.refusal(
              ctx.method().name(),
              ctx.header("Origin"),
              ctx.header("Host"),
              ctx.header("Sec-Fetch-Site"),
              ctx.header(ConsoleSession.CSRF_HEADER),
              session.csrfToken());
      if (refusal != null) {
        throw Problems.forbidden(refusal);
      }
      ctx.attribute(SESSION, session);
      principal = session.principal();
    } else {
      if (!anonymousRead) {
        throw Problems.unauthenticated("send Authorization: Bearer <token>");
      }
      principal = Principal.ANONYMOUS;
    }
    if (!need.grantedBy(principal.scope())) {
      if (principal == Principal.ANONYMOUS) {
        throw Problems.unauthenticated("this request needs a token with scope " + scope(need));
      }
      throw Problems.forbidden(
          (ctx.attribute(SESSION) != null ? "the console session of token " : "token ")
              + principal.name()
              + " lacks scope "
              + scope(need)
              + " for this request");
    }
    ctx.attribute(Caller.ATTRIBUTE, new Caller(principal, requestId));
  }

  private static String scope(Access access) {
    return access.scopeName();
  }
}
