package io.bamel.inventory.api.http;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.bamel.inventory.model.FieldError;
import java.util.List;
import java.util.Map;

/**
 * An RFC 9457 problem detail, the body of every error response ({@code application/problem+json}).
 * {@code type} is a URN naming the kind of problem ({@code urn:bamel:problem:invalid-input}),
 * {@code errors} lists the invalid fields when there are any, and {@code extra} carries members
 * such as {@code conflictingNode}. It never contains a stack trace or a secret.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(
    String type,
    String title,
    int status,
    String detail,
    String instance,
    List<FieldError> errors,
    @com.fasterxml.jackson.annotation.JsonIgnore Map<String, Object> extra) {

  /** The media type of a problem. */
  public static final String MEDIA_TYPE = "application/problem+json";

  /** Copies the lists. */
  public Problem {
    errors = errors == null ? List.of() : List.copyOf(errors);
    extra = extra == null ? Map.of() : Map.copyOf(extra);
  }

  /** A problem of kind {@code slug} with a status, title and detail. */
  public static Problem of(int status, String slug, String title, String detail) {
    return new Problem("urn:bamel:problem:" + slug, title, status, detail, null, null, null);
  }

  /** This problem with field errors. */
  public Problem withErrors(List<FieldError> fieldErrors) {
    return new Problem(type, title, status, detail, instance, fieldErrors, extra);
  }

  /** This problem with an extension member. */
  public Problem with(String name, Object value) {
    Map<String, Object> more = new java.util.LinkedHashMap<>(extra);
    more.put(name, value);
    return new Problem(type, title, status, detail, instance, errors, more);
  }

  /** This problem naming the request path it is about. */
  public Problem at(String path) {
    return new Problem(type, title, status, detail, path, errors, extra);
  }

  /** The extension members, written beside the standard ones. */
  @JsonAnyGetter
  public Map<String, Object> extensionMembers() {
    return extra;
  }
}
