package io.bamel.power.ipmi.rmcp;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A UDP relay on a loopback port between the client and a BMC, which can lose, delay or replay the
 * BMC's answers: the network faults the client must survive.
 */
final class UdpProxy implements AutoCloseable {

  /** What to do with the n-th answer from the BMC (counted from 1). */
  interface Policy {
    /** Answers to forward in its place: itself, nothing (lost), or an older one first. */
    byte[][] answer(int n, byte[] datagram, byte[] previous) throws InterruptedException;
  }

  private final DatagramSocket front;
  private final DatagramSocket back;
  private final InetSocketAddress bmc;
  private final Policy policy;
  private final AtomicInteger answers = new AtomicInteger();
  private volatile SocketAddress client;
  private volatile byte[] previous = new byte[0];
  private final Thread up;
  private final Thread down;

  UdpProxy(InetSocketAddress bmc, Policy policy) throws SocketException {
    this.bmc = bmc;
    this.policy = policy;
    front = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    back = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    up = Thread.ofPlatform().daemon().start(this::up);
    down = Thread.ofPlatform().daemon().start(this::down);
  }

  InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), front.getLocalPort());
  }

  int answers() {
    return answers.get();
  }

  private void up() {
    byte[] buffer = new byte[2048];
    while (!front.isClosed()) {
      try {
        DatagramPacket p = new DatagramPacket(buffer, buffer.length);
        front.receive(p);
        client = p.getSocketAddress();
        back.send(new DatagramPacket(p.getData(), p.getLength(), bmc));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void down() {
    byte[] buffer = new byte[2048];
    while (!back.isClosed()) {
      try {
        DatagramPacket p = new DatagramPacket(buffer, buffer.length);
        back.receive(p);
        byte[] datagram = Arrays.copyOf(p.getData(), p.getLength());
        for (byte[] out : policy.answer(answers.incrementAndGet(), datagram, previous)) {
          front.send(new DatagramPacket(out, out.length, client));
        }
        previous = datagram;
      } catch (IOException | InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    front.close();
    back.close();
    try {
      up.join(1000);
      down.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
