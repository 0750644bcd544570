package io.bamel.dcim.netbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A NetBox API token, read from a file and sent as NetBox expects it, in the forms NetBox's {@code
 * users.constants} generates ({@code TOKEN_CHARSET} is ASCII letters and digits): a v1 token (40
 * letters or digits as NetBox 4.5 and later make them; earlier versions made 40 hexadecimal
 * characters, a subset) as {@code Authorization: Token <token>}; a v2 token ({@code
 * nbt_<key>.<token>}, NetBox 4.5 and later: a 12-character key and a 40-character token, both
 * letters and digits) as {@code Authorization: Bearer nbt_<key>.<token>}. The file holds the token
 * alone, or the header value ({@code Token ...}, {@code Bearer nbt_...}); surrounding white space
 * is ignored. The token is never shown: {@link #toString()} names only its version.
 */
public final class NetBoxToken {

  /** The forms a refusal names, never the refused text. */
  static final String EXPECTED =
      "expected a v1 token (40 letters or digits) or a v2 token (nbt_<12 letters or digits>.<40"
          + " letters or digits>), alone or as the header value Token ... / Bearer ...";

  private static final Pattern V1 = Pattern.compile("[A-Za-z0-9]{40}");
  private static final Pattern V2 = Pattern.compile("nbt_[A-Za-z0-9]{12}\\.[A-Za-z0-9]{40}");

  private final String header;
  private final int version;

  private NetBoxToken(String header, int version) {
    this.header = header;
    this.version = version;
  }

  /**
   * The token in {@code file}.
   *
   * @throws IllegalArgumentException naming the file (never its content) when it cannot be read or
   *     holds no NetBox token
   */
  public static NetBoxToken read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the NetBox token file " + file, e);
    }
    return parse(text, file.toString());
  }

  /**
   * The token {@code text}; {@code source} names where it came from in the error.
   *
   * @throws IllegalArgumentException when {@code text} is no NetBox token
   */
  public static NetBoxToken parse(String text, String source) {
    String t = text.strip();
    if (t.regionMatches(true, 0, "Token ", 0, 6)) {
      t = t.substring(6).strip();
      if (V1.matcher(t).matches()) {
        return new NetBoxToken("Token " + t, 1);
      }
    } else if (t.regionMatches(true, 0, "Bearer ", 0, 7)) {
      t = t.substring(7).strip();
      if (V2.matcher(t).matches()) {
        return new NetBoxToken("Bearer " + t, 2);
      }
    } else if (V1.matcher(t).matches()) {
      return new NetBoxToken("Token " + t, 1);
    } else if (V2.matcher(t).matches()) {
      return new NetBoxToken("Bearer " + t, 2);
    }
    throw new IllegalArgumentException(source + " holds no NetBox API token: " + EXPECTED);
  }

  /** The {@code Authorization} header value. */
  String header() {
    return header;
  }

  /** 1 for a legacy token, 2 for an {@code nbt_} token. */
  public int version() {
    return version;
  }

  @Override
  public String toString() {
    return "NetBox API token (v" + version + ")";
  }
}
