package io.bamel.inventory.api.http;

/**
 * {@code If-None-Match} (RFC 9110, section 13.1.2): a list of entity tags or {@code *}, compared
 * weakly (a {@code W/} prefix is ignored on either side).
 */
final class EntityTags {

  private EntityTags() {}

  /** Whether {@code header} (null: absent, never matches) names {@code etag} or is {@code *}. */
  static boolean anyMatches(String header, String etag) {
    if (header == null) {
      return false;
    }
    String wanted = opaque(etag);
    for (String tag : header.split(",")) {
      String t = tag.trim();
      if (t.equals("*") || opaque(t).equals(wanted)) {
        return true;
      }
    }
    return false;
  }

  private static String opaque(String tag) {
    return tag.startsWith("W/") ? tag.substring(2) : tag;
  }
}
