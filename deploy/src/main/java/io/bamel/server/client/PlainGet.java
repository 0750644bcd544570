package io.bamel.server.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * One GET over {@link HttpURLConnection}, for a plain {@code http://} server: the status and the
 * body. It is what a one-shot client command needs and no more: no selector thread, no TLS set up,
 * about a third of the CPU time of a first {@code java.net.http} request (docs/cli.md). A
 * connection that cannot be made is a {@link ConnectFailure}, an answer that does not come in time
 * a {@link java.net.SocketTimeoutException}; redirects are not followed.
 */
final class PlainGet {

  /** The connection could not be made (refused, unreachable or timed out). */
  static final class ConnectFailure extends IOException {
    ConnectFailure(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** The answer: its status and its body (empty when it has none). */
  record Answer(int status, byte[] body) {}

  private PlainGet() {}

  /** GET {@code uri} with {@code headers}; the read timeout applies to each read. */
  static Answer get(URI uri, Map<String, String> headers, Duration connect, Duration read)
      throws IOException {
    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
    try {
      c.setConnectTimeout((int) connect.toMillis());
      c.setReadTimeout((int) read.toMillis());
      c.setInstanceFollowRedirects(false);
      c.setUseCaches(false);
      headers.forEach(c::setRequestProperty);
      try {
        c.connect();
      } catch (IOException e) {
        throw new ConnectFailure(e);
      }
      int status = c.getResponseCode();
      InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
      byte[] body = in == null ? new byte[0] : readAll(in);
      return new Answer(status, body);
    } finally {
      c.disconnect();
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }
}
