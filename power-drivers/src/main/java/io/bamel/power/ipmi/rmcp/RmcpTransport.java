package io.bamel.power.ipmi.rmcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One UDP socket shared by every RMCP+ session of a client, and the thread that receives on it.
 * Each arriving datagram goes to the mailbox that waits for it: an established session's by the
 * session ID in its header (the console's ID, which the transport makes unique), a session being
 * opened by the console session ID in its Open Session or RAKP answer, and a message outside a
 * session (Get Channel Authentication Capabilities) by its BMC address and request sequence. A
 * datagram from another address than the mailbox's BMC, or that nobody waits for, is dropped.
 */
public final class RmcpTransport implements AutoCloseable {

  /** Datagrams for one session or one request outside a session, from one BMC. */
  static final class Mailbox {
    final InetSocketAddress bmc;
    private final BlockingQueue<byte[]> queue = new LinkedBlockingQueue<>(64);

    Mailbox(InetSocketAddress bmc) {
      this.bmc = bmc;
    }

    /** The next datagram, or null after {@code nanos}. */
    byte[] poll(long nanos) throws InterruptedException {
      return queue.poll(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }
  }

  private record Unsessioned(InetSocketAddress bmc, int sequence) {}

  private final DatagramChannel channel;
  private final Thread receiver;
  private final Map<Integer, Mailbox> sessions = new ConcurrentHashMap<>();
  private final Map<InetSocketAddress, Set<Mailbox>> handshakes = new ConcurrentHashMap<>();
  private final Map<Unsessioned, Mailbox> unsessioned = new ConcurrentHashMap<>();
  private final AtomicInteger unsessionedSequence = new AtomicInteger();
  private final SecureRandom random = new SecureRandom();
  private volatile boolean closed;

  /** Opens the socket on an ephemeral port of every local address and starts receiving. */
  public RmcpTransport() throws IOException {
    channel = DatagramChannel.open();
    channel.bind(null);
    receiver = Thread.ofPlatform().daemon().name("rmcp-receiver").start(this::receive);
  }

  /** The local port, for tests. */
  int localPort() throws IOException {
    return ((InetSocketAddress) channel.getLocalAddress()).getPort();
  }

  /** Sends one datagram. */
  void send(byte[] packet, InetSocketAddress bmc) throws IOException {
    channel.send(ByteBuffer.wrap(packet), bmc);
  }

  /** A new, unique, non-zero console session ID with its mailbox. */
  int openSession(Mailbox mailbox) {
    while (true) {
      int id = random.nextInt();
      if (id != 0 && sessions.putIfAbsent(id, mailbox) == null) {
        return id;
      }
    }
  }

  /** Stops delivering to session {@code consoleId}. */
  void closeSession(int consoleId) {
    Mailbox mailbox = sessions.remove(consoleId);
    if (mailbox != null) {
      handshakeDone(mailbox);
    }
  }

  /**
   * Also delivers to {@code mailbox} the handshake errors of its BMC too short to name a console
   * session ID (ipmi_sim answers a refused Open Session with the tag and status only); the
   * handshake's random message tag tells them apart.
   */
  void handshaking(Mailbox mailbox) {
    handshakes.computeIfAbsent(mailbox.bmc, k -> ConcurrentHashMap.newKeySet()).add(mailbox);
  }

  /** Ends {@link #handshaking}. */
  void handshakeDone(Mailbox mailbox) {
    handshakes.computeIfPresent(
        mailbox.bmc,
        (k, set) -> {
          set.remove(mailbox);
          return set.isEmpty() ? null : set;
        });
  }

  /**
   * Registers {@code mailbox} for a message outside a session and returns its 6-bit request
   * sequence, unique for that BMC while registered.
   */
  int openUnsessioned(Mailbox mailbox) {
    while (true) {
      int sequence = unsessionedSequence.getAndIncrement() & 0x3f;
      if (unsessioned.putIfAbsent(new Unsessioned(mailbox.bmc, sequence), mailbox) == null) {
        return sequence;
      }
    }
  }

  /** Ends {@link #openUnsessioned}. */
  void closeUnsessioned(Mailbox mailbox, int sequence) {
    unsessioned.remove(new Unsessioned(mailbox.bmc, sequence), mailbox);
  }

  private void receive() {
    ByteBuffer buffer = ByteBuffer.allocate(2048);
    while (!closed) {
      try {
        buffer.clear();
        SocketAddress from = channel.receive(buffer);
        if (from instanceof InetSocketAddress source) {
          deliver(Arrays.copyOf(buffer.array(), buffer.position()), source);
        }
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        // an ICMP error surfacing on the socket: the waiting call times out instead
      }
    }
  }

  private void deliver(byte[] d, InetSocketAddress from) {
    if (shortHandshakeError(d)) {
      for (Mailbox waiting : handshakes.getOrDefault(from, Set.of())) {
        waiting.queue.offer(d);
      }
      return;
    }
    Mailbox mailbox = route(d, from);
    if (mailbox != null && mailbox.bmc.equals(from)) {
      mailbox.queue.offer(d);
    }
  }

  private static boolean shortHandshakeError(byte[] d) {
    if (d.length < 18 || (d[4] & 0x0f) != 0x06 || Bytes.le32(d, 6) != 0) {
      return false;
    }
    int type = d[5] & 0x3f;
    return (type == RmcpPacket.OPEN_SESSION_RESPONSE
            || type == RmcpPacket.RAKP_2
            || type == RmcpPacket.RAKP_4)
        && Bytes.le16(d, 14) < 8
        && d[17] != 0;
  }

  private Mailbox route(byte[] d, InetSocketAddress from) {
    if (d.length < 14 || d[0] != 0x06 || (d[3] & 0x1f) != 0x07) {
      return null;
    }
    if ((d[4] & 0x0f) == 0x06) {
      if (d.length < 16) {
        return null;
      }
      int sessionId = Bytes.le32(d, 6);
      int type = d[5] & 0x3f;
      if (sessionId != 0) {
        return sessions.get(sessionId);
      }
      boolean handshake =
          type == RmcpPacket.OPEN_SESSION_RESPONSE
              || type == RmcpPacket.RAKP_2
              || type == RmcpPacket.RAKP_4;
      return handshake && d.length >= 24 ? sessions.get(Bytes.le32(d, 20)) : null;
    }
    if ((d[4] & 0x0f) == 0 && d.length >= 21 && Bytes.le32(d, 9) == 0) {
      return unsessioned.get(new Unsessioned(from, (d[18] & 0xff) >> 2));
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    channel.close();
    try {
      receiver.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
