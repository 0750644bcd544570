package io.bamel.inventory.api.http;

import java.util.OptionalLong;

/**
 * ETags and {@code If-Match}. A resource's ETag is its etcd mod revision in quotes ({@code "42"});
 * {@code If-Match: *} matches any existing resource. A weak or malformed tag never matches.
 */
public final class Preconditions {

  /** What an If-Match header asks for. */
  public sealed interface IfMatch {
    /** No header: unconditional. */
    record None() implements IfMatch {}

    /** {@code *}: the resource must exist. */
    record Any() implements IfMatch {}

    /** A revision the resource must be at (-1: a tag that can never match). */
    record Revision(long revision) implements IfMatch {}
  }

  private Preconditions() {}

  /** The ETag for a revision. */
  public static String etag(long revision) {
    return "\"" + revision + "\"";
  }

  /** Parses an If-Match header (null: none). */
  public static IfMatch parse(String header) {
    if (header == null) {
      return new IfMatch.None();
    }
    String h = header.trim();
    if (h.equals("*")) {
      return new IfMatch.Any();
    }
    if (h.length() >= 3 && h.startsWith("\"") && h.endsWith("\"")) {
      String digits = h.substring(1, h.length() - 1);
      if (digits.matches("[0-9]{1,18}")) {
        return new IfMatch.Revision(Long.parseLong(digits));
      }
    }
    return new IfMatch.Revision(-1);
  }

  /**
   * Checks an If-Match against the resource's current revision (0: it does not exist).
   *
   * @return the revision the write must be guarded by, when the request named one
   * @throws ApiException 412 when it does not match
   */
  public static OptionalLong check(IfMatch ifMatch, long current, String what) {
    return switch (ifMatch) {
      case IfMatch.None n -> OptionalLong.empty();
      case IfMatch.Any a -> {
        if (current == 0) {
          throw Problems.preconditionFailed(what + " does not exist");
        }
        yield OptionalLong.of(current);
      }
      case IfMatch.Revision r -> {
        if (r.revision() != current || current == 0) {
          throw Problems.preconditionFailed(
              what
                  + (current == 0
                      ? " does not exist"
                      : " is at " + etag(current) + ", not the If-Match given"));
        }
        yield OptionalLong.of(current);
      }
    };
  }
}
