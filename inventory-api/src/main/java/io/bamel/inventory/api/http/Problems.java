package io.bamel.inventory.api.http;

import io.bamel.inventory.model.FieldError;
import java.util.List;

/** The problems the API answers with, one factory per kind; each returns the exception to throw. */
public final class Problems {

  private Problems() {}

  /** 400: the request is malformed or a field is invalid. */
  public static ApiException invalid(String detail, List<FieldError> errors) {
    return new ApiException(
        Problem.of(400, "invalid-input", "Invalid input", detail).withErrors(errors));
  }

  /** 400 on one field. */
  public static ApiException invalid(String field, String message) {
    return invalid("the request has an invalid field", List.of(new FieldError(field, message)));
  }

  /** 400: the body is not well-formed JSON. */
  public static ApiException malformed(String detail) {
    return new ApiException(Problem.of(400, "malformed-json", "Malformed JSON", detail));
  }

  /** 401: no or an unknown bearer token. */
  public static ApiException unauthenticated(String detail) {
    return new ApiException(Problem.of(401, "unauthenticated", "Authentication required", detail));
  }

  /** 403: the token lacks the scope. */
  public static ApiException forbidden(String detail) {
    return new ApiException(Problem.of(403, "forbidden", "Forbidden", detail));
  }

  /** 404. */
  public static ApiException notFound(String detail) {
    return new ApiException(Problem.of(404, "not-found", "Not found", detail));
  }

  /** 406: none of the representations the client accepts can be sent. */
  public static ApiException notAcceptable(String detail) {
    return new ApiException(Problem.of(406, "not-acceptable", "Not acceptable", detail));
  }

  /** 408: the request (its body) did not arrive in time. */
  public static ApiException requestTimeout(String detail) {
    return new ApiException(Problem.of(408, "request-timeout", "Request timeout", detail));
  }

  /** 409: the request conflicts with the inventory's state. */
  public static ApiException conflict(String detail) {
    return new ApiException(Problem.of(409, "conflict", "Conflict", detail));
  }

  /** 409: a unique field is already used by another node, which is named. */
  public static ApiException duplicate(String field, String value, String otherNode) {
    return new ApiException(
        Problem.of(
                409,
                "duplicate",
                "Already used by another node",
                field + " " + value + " is already used by node " + otherNode)
            .withErrors(List.of(new FieldError(field, "already used by node " + otherNode)))
            .with("conflictingNode", otherNode));
  }

  /** 410: a pinned revision was compacted. */
  public static ApiException gone(String detail) {
    return new ApiException(Problem.of(410, "gone", "Revision compacted", detail));
  }

  /** 412: If-Match does not match. */
  public static ApiException preconditionFailed(String detail) {
    return new ApiException(Problem.of(412, "precondition-failed", "Precondition failed", detail));
  }

  /** 413: the body is over the limit. */
  public static ApiException tooLarge(long limit) {
    return new ApiException(
        Problem.of(
            413,
            "too-large",
            "Request body too large",
            "the body must be at most " + limit + " bytes"));
  }

  /** 415: the body's content type is not accepted. */
  public static ApiException unsupportedMediaType(String detail) {
    return new ApiException(
        Problem.of(415, "unsupported-media-type", "Unsupported media type", detail));
  }

  /** 428: the request must be conditional (If-Match). */
  public static ApiException preconditionRequired(String detail) {
    return new ApiException(
        Problem.of(428, "precondition-required", "Precondition required", detail));
  }

  /** 503: etcd is unavailable or the cache is not synced. */
  public static ApiException unavailable(String detail) {
    return new ApiException(Problem.of(503, "unavailable", "Service unavailable", detail));
  }
}
