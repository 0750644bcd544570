package io.bamel.inventory.api.http;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Sends a listing: {@code 304 Not Modified} when {@code If-None-Match} names its ETag (or is {@code
 * *}); otherwise 200 with the body in the coding {@link AcceptEncoding} picks (gzip from {@link
 * #GZIP_FROM} bytes on, when the client accepts it at least as much as identity), {@code
 * Content-Length} and {@code ETag} set and the bytes written in one call; 406 when the client
 * accepts neither coding. Every answer carries {@code Vary: Accept-Encoding}. Javalin's own
 * compression stays off: the gzip bytes come from the caller (built once per listing and revision).
 */
public final class ListingResponse {

  /** Bodies from this size on are gzipped for clients that accept it. */
  public static final int GZIP_FROM = 8 * 1024;

  /** A listing's bytes, plain and gzipped (the latter may be built on first use). */
  public interface Body {
    /** The JSON as it is. */
    byte[] identity();

    /** The JSON gzipped. */
    byte[] gzip();
  }

  private ListingResponse() {}

  /** The ETag of a listing: {@code "l<revision>-<crc32 of the query, hex>"}. */
  public static String etag(long revision, String query) {
    CRC32 crc = new CRC32();
    crc.update(query.getBytes(StandardCharsets.UTF_8));
    return "\"l" + revision + "-" + Long.toHexString(crc.getValue()) + "\"";
  }

  /**
   * Answers 304 (and returns true) when the request's {@code If-None-Match} matches {@code etag};
   * otherwise returns false and leaves the response alone.
   */
  public static boolean notModified(Context ctx, String etag) {
    if (!EntityTags.anyMatches(ctx.header("If-None-Match"), etag)) {
      return false;
    }
    ctx.status(HttpStatus.NOT_MODIFIED);
    ctx.header("ETag", etag);
    ctx.header("Vary", "Accept-Encoding");
    return true;
  }

  /** Sends {@code body} with {@code etag} in the coding the request accepts (406 if none). */
  public static void send(Context ctx, String etag, Body body) {
    byte[] identity = body.identity();
    String coding =
        AcceptEncoding.parse(ctx.header("Accept-Encoding")).choose(identity.length, GZIP_FROM);
    ctx.header("Vary", "Accept-Encoding");
    if (coding == null) {
      throw Problems.notAcceptable(
          "the listing is sent as gzip or identity and the request's Accept-Encoding refuses both");
    }
    byte[] bytes = coding.equals("gzip") ? body.gzip() : identity;
    HttpServletResponse res = ctx.res();
    res.setStatus(200);
    res.setContentType("application/json");
    res.setHeader("ETag", etag);
    if (coding.equals("gzip")) {
      res.setHeader("Content-Encoding", "gzip");
    }
    res.setContentLength(bytes.length);
    try {
      OutputStream out = res.getOutputStream();
      out.write(bytes);
      out.flush();
    } catch (IOException e) {
      // The client went away; there is no one to answer.
    }
  }
}
