package io.bamel.inventory.api.http;

import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.BadMessageException;

/**
 * Reads request bodies: checks the content type (415) and reads at most the configured number of
 * bytes (413), whether or not the client sent a Content-Length. A body arriving below the
 * connector's minimum data rate is 408; one that cannot be read to its end is 400.
 */
public final class Bodies {

  /** JSON. */
  public static final Set<String> JSON = Set.of("application/json");

  /** A JSON Merge Patch (RFC 7396), or plain JSON. */
  public static final Set<String> MERGE_PATCH =
      Set.of("application/merge-patch+json", "application/json");

  private final long maxBytes;

  Bodies(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The body's bytes, after checking its media type is one of {@code accepted}. */
  public byte[] read(Context ctx, Set<String> accepted) {
    String type = mediaType(ctx.header("Content-Type"));
    if (type == null || !accepted.contains(type)) {
      throw Problems.unsupportedMediaType(
          "Content-Type must be "
              + String.join(" or ", accepted.stream().sorted().toList())
              + (type == null ? "; none was given" : ", not " + type));
    }
    long declared = ctx.req().getContentLengthLong();
    if (declared > maxBytes) {
      throw Problems.tooLarge(maxBytes);
    }
    try (InputStream in = ctx.req().getInputStream()) {
      if (declared > 0 && declared < Integer.MAX_VALUE - 8) {
        return readDeclared(in, (int) declared);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 1024);
      byte[] buffer = new byte[16 * 1024];
      long total = 0;
      int n;
      while ((n = in.read(buffer)) > 0) {
        total += n;
        if (total > maxBytes) {
          throw Problems.tooLarge(maxBytes);
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (BadMessageException e) {
      if (e.getCode() == 408) {
        throw Problems.requestTimeout(
            "the request body arrived too slowly; send it at a steady rate");
      }
      throw Problems.malformed("the body could not be read completely");
    } catch (IOException e) {
      throw Problems.malformed("the body could not be read completely");
    }
  }

  /**
   * Exactly {@code length} bytes of a body whose Content-Length is known, read into one array of
   * that size (no growing buffer, no copy), with no read call once the last byte has been read.
   *
   * <p>The connector checks the minimum data rate at every read call, against the time since the
   * body's first bytes were handed over: one more call after the whole body has arrived (to see its
   * end, or a zero-length read) would answer 408 to a client that sent its body at once, whenever a
   * busy server reads it late. The connector never hands over more than Content-Length bytes, so
   * there is no end to check.
   *
   * @throws ApiException 400 if the body ends before {@code length} bytes
   */
  static byte[] readDeclared(InputStream in, int length) throws IOException {
    byte[] body = new byte[length];
    int read = 0;
    while (read < length) {
      int n = in.read(body, read, length - read);
      if (n < 0) {
        throw Problems.malformed("the body could not be read completely");
      }
      read += n;
    }
    return body;
  }

  /** The media type of a Content-Type header, lower case, without parameters; null if absent. */
  static String mediaType(String header) {
    if (header == null || header.isBlank()) {
      return null;
    }
    int semicolon = header.indexOf(';');
    String type = semicolon >= 0 ? header.substring(0, semicolon) : header;
    type = type.trim().toLowerCase(Locale.ROOT);
    if (semicolon >= 0) {
      String params = header.substring(semicolon + 1).trim().toLowerCase(Locale.ROOT);
      if (params.startsWith("charset=") && !params.replace("\"", "").equals("charset=utf-8")) {
        return type + "; " + params;
      }
    }
    return type;
  }
}
