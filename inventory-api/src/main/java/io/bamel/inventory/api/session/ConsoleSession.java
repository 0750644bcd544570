package io.bamel.inventory.api.session;

import io.bamel.inventory.api.security.Principal;
import java.time.Instant;

/**
 * One signed-in console session: who holds it (the principal and scope of the token pasted at
 * sign-in, fixed for the session's life), the CSRF token the page must send with every write, and
 * when it ends. The cookie value itself is not kept: {@link ConsoleSessions} holds sessions under
 * the SHA-256 of it.
 *
 * @param principal the token's owner and scope
 * @param csrfToken the value a write from the page must carry in {@value #CSRF_HEADER}
 * @param created when the session began
 * @param expiresAt when it ends
 */
public record ConsoleSession(
    Principal principal, String csrfToken, Instant created, Instant expiresAt) {

  /** The request header carrying the session's CSRF token on writes. */
  public static final String CSRF_HEADER = "X-CSRF-Token";

  /** Whether the session still holds at {@code now}. */
  public boolean validAt(Instant now) {
    return now.isBefore(expiresAt);
  }
}
