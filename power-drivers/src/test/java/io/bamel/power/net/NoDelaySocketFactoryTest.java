package io.bamel.power.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoDelaySocketFactoryTest {

  @Test
  void everySocketItMakesHasNagleOff() throws Exception {
    NoDelaySocketFactory factory = new NoDelaySocketFactory();
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (ServerSocket server = new ServerSocket(0, 8, loopback)) {
      int port = server.getLocalPort();
      List<Socket> sockets =
          List.of(
              factory.createSocket(),
              factory.createSocket(loopback, port),
              factory.createSocket(loopback.getHostAddress(), port),
              factory.createSocket(loopback, port, loopback, 0),
              factory.createSocket(loopback.getHostAddress(), port, loopback, 0));
      for (Socket socket : sockets) {
        try (socket) {
          assertThat(socket.getTcpNoDelay()).isTrue();
        }
      }
      // what the JDK gives without it: Nagle on
      try (Socket plain = new Socket(loopback, port)) {
        assertThat(plain.getTcpNoDelay()).isFalse();
      }
    }
  }
}
