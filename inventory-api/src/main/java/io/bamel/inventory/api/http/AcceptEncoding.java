package io.bamel.inventory.api.http;

import java.util.Locale;

/**
 * What an {@code Accept-Encoding} header (RFC 9110, section 12.5.3) allows, reduced to the two
 * codings the API sends: {@code gzip} and {@code identity}. Each gets a weight from 0 (refused) to
 * 1: its own entry ({@code x-gzip} counts as {@code gzip}), else the {@code *} entry, else 0 for
 * gzip and 1 for identity (identity is acceptable unless refused by {@code identity;q=0} or by
 * {@code *;q=0} without an identity entry). No header at all accepts only identity here (the client
 * did not say it can decode anything). An element with a malformed weight is ignored.
 *
 * @param gzip the weight of gzip
 * @param identity the weight of identity (no coding)
 */
record AcceptEncoding(double gzip, double identity) {

  /** What a request without the header accepts: identity only. */
  static final AcceptEncoding ABSENT = new AcceptEncoding(0, 1);

  /** Parses the header value (null: absent). */
  static AcceptEncoding parse(String header) {
    if (header == null) {
      return ABSENT;
    }
    double gzip = -1;
    double identity = -1;
    double any = -1;
    for (String element : header.split(",")) {
      String[] parts = element.split(";");
      String coding = parts[0].trim().toLowerCase(Locale.ROOT);
      if (coding.isEmpty()) {
        continue;
      }
      double q = 1;
      for (int i = 1; i < parts.length; i++) {
        String param = parts[i].trim();
        if (param.regionMatches(true, 0, "q=", 0, 2)) {
          q = weight(param.substring(2).trim());
        }
      }
      if (Double.isNaN(q)) {
        continue;
      }
      switch (coding) {
        case "gzip", "x-gzip" -> gzip = Math.max(gzip, q);
        case "identity" -> identity = Math.max(identity, q);
        case "*" -> any = Math.max(any, q);
        default -> {}
      }
    }
    double g = gzip >= 0 ? gzip : any >= 0 ? any : 0;
    double id = identity >= 0 ? identity : any == 0 ? 0 : 1;
    return new AcceptEncoding(g, id);
  }

  /**
   * The coding to send a body of {@code size} bytes in, or null when none is acceptable (406).
   * Bodies of at least {@code gzipFrom} bytes are gzipped when the client accepts gzip at least as
   * much as identity; smaller ones go as they are unless identity is refused.
   */
  String choose(int size, int gzipFrom) {
    if (gzip > 0 && (identity <= 0 || size >= gzipFrom && gzip >= identity)) {
      return "gzip";
    }
    return identity > 0 ? "identity" : null;
  }

  /** A qvalue: 0 to 1 with at most three decimals; NaN when malformed. */
  private static double weight(String text) {
    if (!text.matches("(0(\\.[0-9]{0,3})?|1(\\.0{0,3})?)")) {
      return Double.NaN;
    }
    return Double.parseDouble(text);
  }
}
