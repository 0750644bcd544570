package io.bamel.inventory.api.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** Gzip (RFC 1952) of a whole body in memory, at a fast compression level. */
public final class Gzip {

  /** Fast over small: a listing is compressed once per revision, on the request's time. */
  static final int LEVEL = Deflater.BEST_SPEED;

  private Gzip() {}

  /** The gzip form of {@code bytes}. */
  public static byte[] compress(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 6 + 64);
    try (GZIPOutputStream gzip =
        new GZIPOutputStream(out, 64 * 1024) {
          {
            def.setLevel(LEVEL);
          }
        }) {
      gzip.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("gzip in memory failed", e);
    }
    return out.toByteArray();
  }
}
