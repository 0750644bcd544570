package io.bamel.power.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * Plain sockets with {@code TCP_NODELAY} set, for OkHttp's {@code socketFactory}: OkHttp leaves
 * Nagle's algorithm on, and a TLS client writes its last handshake flight (a ChangeCipherSpec
 * record, then Finished) and then its request in separate writes, so each later write waits for the
 * server's acknowledgement of the first, which a server delays (Linux: up to 40 ms) until it has
 * something to send; every new connection then pays that stall.
 */
public final class NoDelaySocketFactory extends SocketFactory {

  private final SocketFactory sockets = SocketFactory.getDefault();

  @Override
  public Socket createSocket() throws IOException {
    return noDelay(sockets.createSocket());
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return noDelay(sockets.createSocket(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
      throws IOException {
    return noDelay(sockets.createSocket(host, port, localHost, localPort));
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return noDelay(sockets.createSocket(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    return noDelay(sockets.createSocket(address, port, localAddress, localPort));
  }

  private static Socket noDelay(Socket socket) throws IOException {
    socket.setTcpNoDelay(true);
    return socket;
  }
}
