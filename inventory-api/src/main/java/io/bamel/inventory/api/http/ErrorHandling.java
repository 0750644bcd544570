package io.bamel.inventory.api.http;

import io.bamel.inventory.api.security.Caller;
import io.bamel.inventory.model.InvalidInputException;
import io.bamel.inventory.model.PersonText;
import io.bamel.inventory.store.AlreadyExistsException;
import io.bamel.inventory.store.CompactedException;
import io.bamel.inventory.store.ConflictException;
import io.bamel.inventory.store.DuplicateValueException;
import io.bamel.inventory.store.FencedException;
import io.bamel.inventory.store.NotFoundException;
import io.bamel.inventory.store.StoreUnavailableException;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.MethodNotAllowedResponse;
import io.javalin.router.JavalinDefaultRouting;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps every failure to an RFC 9457 problem: the API's own {@link ApiException}s, the model's
 * {@link InvalidInputException} (400 with field errors), the store's exceptions (404, 409, 410,
 * 503), Javalin's (404, 405, 413, ...), and anything unexpected (500, logged with the request id,
 * answered without a stack trace). A message that was not written for a person ({@link PersonText})
 * is replaced by a plain one.
 */
public final class ErrorHandling {

  private static final Logger LOG = LoggerFactory.getLogger(ErrorHandling.class);
  private static final String CHANGED = "the resource changed meanwhile; read it and try again";

  private ErrorHandling() {}

  public static void register(JavalinDefaultRouting routes) {
    routes.exception(ApiException.class, (e, ctx) -> answer(ctx, e.problem()));
    routes.exception(
        InvalidInputException.class,
        (e, ctx) ->
            answer(ctx, Problems.invalid("the request has invalid fields", e.errors()).problem()));
    routes.exception(
        NotFoundException.class,
        (e, ctx) -> answer(ctx, Problems.notFound(text(e, "no such resource")).problem()));
    routes.exception(
        AlreadyExistsException.class,
        (e, ctx) -> answer(ctx, Problems.conflict(text(e, "it") + " already exists").problem()));
    routes.exception(
        ConflictException.class,
        (e, ctx) -> answer(ctx, Problems.conflict(text(e, CHANGED)).problem()));
    routes.exception(
        DuplicateValueException.class,
        (e, ctx) -> answer(ctx, Problems.duplicate(e.field(), e.value(), e.holder()).problem()));
    routes.exception(
        FencedException.class,
        (e, ctx) -> answer(ctx, Problems.conflict(text(e, CHANGED)).problem()));
    routes.exception(
        CompactedException.class,
        (e, ctx) ->
            answer(
                ctx, Problems.gone(text(e, "the revision was compacted; list again")).problem()));
    routes.exception(
        StoreUnavailableException.class,
        (e, ctx) -> {
          LOG.warn("etcd unavailable in {} {}: {}", ctx.method(), ctx.path(), e.getMessage());
          answer(ctx, Problems.unavailable("etcd is unavailable; try again").problem());
        });
    routes.exception(
        MethodNotAllowedResponse.class, (e, ctx) -> methodNotAllowed(ctx, e.getDetails()));
    routes.exception(
        HttpResponseException.class,
        (e, ctx) -> answer(ctx, fromStatus(e.getStatus(), e.getMessage())));
    routes.exception(
        Exception.class,
        (e, ctx) -> {
          String requestId = ctx.res().getHeader(Caller.REQUEST_ID);
          LOG.error(
              "unexpected failure in {} {} (request {})", ctx.method(), ctx.path(), requestId, e);
          answer(
              ctx,
              Problem.of(
                  500,
                  "internal",
                  "Internal error",
                  "an unexpected error occurred; the server log has it under request id "
                      + requestId));
        });
    for (int status : new int[] {404, 405, 413, 415, 500}) {
      routes.error(
          status,
          ctx -> {
            String type = ctx.res().getContentType();
            if (type == null || !type.startsWith(Problem.MEDIA_TYPE)) {
              answer(ctx, fromStatus(ctx.statusCode(), null));
            }
          });
    }
  }

  /**
   * 405 for a path that has routes but none for the request's method: {@code Allow} lists the
   * methods it has (Javalin found them in its route table: {@code http.prefer405over404}).
   */
  private static void methodNotAllowed(Context ctx, Map<String, String> details) {
    String available =
        details.getOrDefault("availableMethods", details.getOrDefault("Available methods", ""));
    Set<String> methods = new LinkedHashSet<>();
    for (String m : available.split(",")) {
      String method = m.trim();
      if (method.isEmpty()) {
        continue;
      }
      methods.add(method);
    }
    String allow = String.join(", ", methods);
    String method = ctx.method().name();
    answer(
        ctx,
        Problem.of(
            405,
            "method-not-allowed",
            "Method not allowed",
            method + " is not allowed here; allowed: " + allow + " (see /openapi.json)"));
    ctx.header("Allow", allow);
  }

  /** The exception's message if it was written for a person, else {@code fallback}. */
  private static String text(Exception e, String fallback) {
    return PersonText.or(e.getMessage(), fallback);
  }

  static Problem fromStatus(int status, String message) {
    return switch (status) {
      case 404 -> Problem.of(404, "not-found", "Not found", "no such resource or route");
      case 405 -> Problem.of(405, "method-not-allowed", "Method not allowed", "see /openapi.json");
      case 413 -> Problem.of(413, "too-large", "Request body too large", "the body is too large");
      default ->
          Problem.of(
              status,
              "http-" + status,
              io.javalin.http.HttpStatus.forStatus(status).getMessage(),
              message == null || message.length() > 200 || !PersonText.isPlain(message)
                  ? "the request failed"
                  : message);
    };
  }

  static void answer(Context ctx, Problem problem) {
    String path = ctx.path();
    Problem p = problem.at(path.length() > 256 ? path.substring(0, 256) : path);
    ctx.status(p.status()).contentType(Problem.MEDIA_TYPE).result(ApiJson.write(p));
    if (p.status() == 401) {
      ctx.header("WWW-Authenticate", "Bearer realm=\"bamel\"");
    }
  }
}
