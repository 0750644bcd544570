package io.bamel.power.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A UDP listener on loopback that keeps every datagram it receives: the receiving end of
 * Wake-on-LAN tests and demos.
 */
public final class WolListener implements AutoCloseable {

  private final DatagramSocket socket;
  private final BlockingQueue<byte[]> packets = new LinkedBlockingQueue<>();
  private final Thread reader;

  private WolListener(DatagramSocket socket) {
    this.socket = socket;
    this.reader = Thread.ofPlatform().daemon().name("wol-listener").start(this::read);
  }

  /** Listens on a free port of 127.0.0.1. */
  public static WolListener start() {
    try {
      return new WolListener(
          new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
    } catch (SocketException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The port listened on. */
  public int port() {
    return socket.getLocalPort();
  }

  /** The next datagram received, waiting up to {@code timeout}. */
  public Optional<byte[]> next(Duration timeout) throws InterruptedException {
    return Optional.ofNullable(packets.poll(timeout.toMillis(), TimeUnit.MILLISECONDS));
  }

  /** How many datagrams are waiting. */
  public int pending() {
    return packets.size();
  }

  private void read() {
    byte[] buffer = new byte[2048];
    while (!socket.isClosed()) {
      DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
      try {
        socket.receive(packet);
        packets.add(Arrays.copyOfRange(buffer, packet.getOffset(), packet.getLength()));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  @Override
  public void close() {
    socket.close();
    try {
      reader.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
