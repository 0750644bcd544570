package io.bamel.inventory.api.security;

import io.bamel.inventory.model.NodeEvent;
import io.javalin.http.Context;
import java.time.Clock;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Who is calling and in which request: the authenticated {@link Principal} and the request id
 * ({@code X-Request-ID} when the client sent a well-formed one, else a new UUID; echoed in the
 * response). Writes record both in the node's events.
 */
public record Caller(Principal principal, String requestId) {

  static final String ATTRIBUTE = "bamel.caller";
  public static final String REQUEST_ID = "X-Request-ID";
  private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  /** The request id the client sent if well-formed, else a new one. */
  public static String requestId(String header) {
    return header != null && VALID_ID.matcher(header).matches()
        ? header
        : UUID.randomUUID().toString();
  }

  /** The caller of a request that passed authentication. */
  public static Caller of(Context ctx) {
    Caller caller = ctx.attribute(ATTRIBUTE);
    if (caller == null) {
      throw new IllegalStateException("no caller: the route was not authenticated");
    }
    return caller;
  }

  /** An event recording an inventory change made by this caller. */
  public NodeEvent event(Clock clock, String reason, String message) {
    return NodeEvent.change(clock.instant(), reason, message, principal.name(), requestId);
  }
}
