package io.bamel.inventory.api.nodes;

import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.model.Ids;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The {@code continue} token of a paged listing: the revision every page is read at, the id to
 * continue after, and a hash of the filters (a token is only valid with the filters it was made
 * with). Opaque to clients: base64url of {@code revision/after/filterHash}.
 */
public record ContinueToken(long revision, String after, int filterHash) {

  /** The token's text. */
  public String encode() {
    String raw = revision + "/" + after + "/" + Integer.toHexString(filterHash);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Parses a token and checks it was made for {@code filter}.
   *
   * @throws ApiException 400 when it is malformed or made for other filters
   */
  public static ContinueToken decode(String text, NodeFilter filter) {
    String raw;
    try {
      if (text.length() > 200) {
        throw new IllegalArgumentException("too long");
      }
      raw = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw Problems.invalid("continue", "not a continue token of this API");
    }
    String[] parts = raw.split("/", -1);
    if (parts.length != 3
        || !parts[0].matches("[1-9][0-9]{0,17}")
        || !Ids.isValid(parts[1])
        || !parts[2].matches("[0-9a-f]{1,8}")) {
      throw Problems.invalid("continue", "not a continue token of this API");
    }
    ContinueToken token =
        new ContinueToken(
            Long.parseLong(parts[0]), parts[1], Integer.parseUnsignedInt(parts[2], 16));
    if (token.filterHash() != filter.canonical().hashCode()) {
      throw Problems.invalid("continue", "the token was made for other filters");
    }
    return token;
  }
}
