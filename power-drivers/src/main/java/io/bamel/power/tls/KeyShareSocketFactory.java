package io.bamel.power.tls;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * An {@link SSLSocketFactory} that makes its sockets offer the key exchange groups a {@link
 * KeyShareGroups} chooses, and is otherwise the factory it wraps (the same TLS context, so the same
 * session cache: resumption is unaffected). Thread-safe.
 */
public final class KeyShareSocketFactory extends SSLSocketFactory {

  private final SSLSocketFactory delegate;
  private final KeyShareGroups groups;

  /** Wraps {@code delegate}; {@code groups} decides what each new socket offers. */
  public KeyShareSocketFactory(SSLSocketFactory delegate, KeyShareGroups groups) {
    this.delegate = delegate;
    this.groups = groups;
  }

  private Socket offering(Socket socket) {
    if (socket instanceof SSLSocket tls) {
      SSLParameters parameters = tls.getSSLParameters();
      String[] chosen = groups.groupsFor(parameters.getNamedGroups());
      if (chosen != null) {
        parameters.setNamedGroups(chosen);
        tls.setSSLParameters(parameters);
      }
    }
    return socket;
  }

  @Override
  public String[] getDefaultCipherSuites() {
    return delegate.getDefaultCipherSuites();
  }

  @Override
  public String[] getSupportedCipherSuites() {
    return delegate.getSupportedCipherSuites();
  }

  @Override
  public Socket createSocket() throws IOException {
    return offering(delegate.createSocket());
  }

  @Override
  public Socket createSocket(Socket socket, String host, int port, boolean autoClose)
      throws IOException {
    return offering(delegate.createSocket(socket, host, port, autoClose));
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return offering(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    return offering(delegate.createSocket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return offering(delegate.createSocket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return offering(delegate.createSocket(address, port, localAddress, localPort));
  }
}
