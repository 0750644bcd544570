package io.bamel.inventory.api;

import io.javalin.http.Context;
import io.javalin.security.RouteRole;
import java.util.Set;

/**
 * Checks the bearer token of every matched route against the {@link Access} it requires: no or an
 * unknown token is 401 (unless the route is public, or anonymous read is on and the route only
 * reads), a token without the scope is 403. Puts the {@link Caller} on the request.
 */
final class Authentication {

  private final TokenStore tokens;
  private final boolean anonymousRead;

  Authentication(TokenStore tokens, boolean anonymousRead) {
    this.tokens = tokens;
    this.anonymousRead = anonymousRead;
  }

  void check(Context ctx) {
    String requestId = ctx.res().getHeader(Caller.REQUEST_ID);
    Set<RouteRole> roles = ctx.routeRoles();
    Access need = roles.isEmpty() ? Access.ADMIN : (Access) roles.iterator().next();
    if (need == Access.PUBLIC) {
      ctx.attribute(Caller.ATTRIBUTE, new Caller(Principal.ANONYMOUS, requestId));
      return;
    }
    String header = ctx.header("Authorization");
    Principal principal;
    if (header == null) {
      if (!anonymousRead) {
        throw Problems.unauthenticated("send Authorization: Bearer <token>");
      }
      principal = Principal.ANONYMOUS;
    } else {
      if (header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw Problems.unauthenticated("the Authorization header must be Bearer <token>");
      }
      principal =
          tokens
              .authenticate(header.substring(7).trim())
              .orElseThrow(() -> Problems.unauthenticated("the token is not valid"));
    }
    if (!need.grantedBy(principal.scope())) {
      if (principal == Principal.ANONYMOUS) {
        throw Problems.unauthenticated("this request needs a token with scope " + scope(need));
      }
      throw Problems.forbidden(
          "token " + principal.name() + " lacks scope " + scope(need) + " for this request");
    }
    ctx.attribute(Caller.ATTRIBUTE, new Caller(principal, requestId));
  }

  private static String scope(Access access) {
    return access.scopeName();
  }
}
