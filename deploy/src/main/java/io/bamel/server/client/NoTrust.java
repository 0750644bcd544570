package io.bamel.server.client;

import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS context of a client of a plain {@code http://} server: {@link java.net.http.HttpClient}
 * wants one when it is built, but a plain connection never uses it (redirects are not followed).
 * This one sets nothing up: no provider, no random source, no cipher suites, no trust store (the
 * JDK's default context reads some 150 certificates, and even an initialised empty context costs a
 * client command tens of milliseconds at every start); every TLS operation asked of it fails with
 * {@link UnsupportedOperationException}, so no certificate is ever trusted through it.
 */
final class NoTrust extends SSLContextSpi {

  private static final String REFUSED = "no TLS on a plain HTTP connection";

  private NoTrust() {}

  /** A context for plain HTTP only: its every handshake fails. */
  static SSLContext context() {
    return new SSLContext(new NoTrust(), null, "TLS") {};
  }

  @Override
  protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
      throws KeyManagementException {
    throw new KeyManagementException(REFUSED);
  }

  /** Empty parameters: what the HTTP client copies at build time, never applied. */
  @Override
  protected SSLParameters engineGetDefaultSSLParameters() {
    return new SSLParameters();
  }

  @Override
  protected SSLParameters engineGetSupportedSSLParameters() {
    return new SSLParameters();
  }

  @Override
  protected SSLSocketFactory engineGetSocketFactory() {
    throw new UnsupportedOperationException(REFUSED);
  }

  @Override
  protected SSLServerSocketFactory engineGetServerSocketFactory() {
    throw new UnsupportedOperationException(REFUSED);
  }

  @Override
  protected SSLEngine engineCreateSSLEngine() {
    throw new UnsupportedOperationException(REFUSED);
  }

  @Override
  protected SSLEngine engineCreateSSLEngine(String host, int port) {
    throw new UnsupportedOperationException(REFUSED);
  }

  @Override
  protected SSLSessionContext engineGetServerSessionContext() {
    throw new UnsupportedOperationException(REFUSED);
  }

  @Override
  protected SSLSessionContext engineGetClientSessionContext() {
    throw new UnsupportedOperationException(REFUSED);
  }
}
