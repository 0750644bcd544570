package io.bamel.inventory.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The client side of the TLS tests: an {@link SSLContext} that trusts one CA and presents a client
 * certificate or none, a GET with a bearer token, and the plain-HTTP probe of a port that should
 * speak only TLS.
 */
public final class TlsClients {

  private TlsClients() {}

  /** A client context trusting {@code ca}, presenting {@code client} when it is not null. */
  public static SSLContext context(X509Certificate ca, TestPki.Issued client) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    KeyManagerFactory kmf = null;
    if (client != null) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "client",
          client.keys().getPrivate(),
          "x".toCharArray(),
          new X509Certificate[] {client.cert()});
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, "x".toCharArray());
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return context;
  }

  /** {@code GET url} through {@code client}, with {@code token} as bearer when it is not null. */
  public static HttpResponse<String> get(HttpClient client, String url, String token)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * What a port on 127.0.0.1 answers to a plain-HTTP {@code GET path} written by hand on a socket
   * (no client library in between): every byte read until the peer closes, times out (5 s) or
   * resets, as ISO-8859-1 text. A TLS-only port answers no HTTP status line.
   */
  public static String plainHttpAnswer(int port, String path) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      socket
          .getOutputStream()
          .write(
              ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      return new String(readSome(socket.getInputStream()), StandardCharsets.ISO_8859_1);
    }
  }

  /** The bytes read until the end of the stream or an error (a timeout, a reset), kept. */
  private static byte[] readSome(InputStream in) {
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        read.write(buffer, 0, n);
      }
    } catch (IOException e) {
      // A timeout or a reset: what a TLS server may do with bytes that are not a handshake.
    }
    return read.toByteArray();
  }
}
