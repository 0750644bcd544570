package io.bamel.power.sim.ipmi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fleet of simulated IPMI v2.0 BMCs in this process: each BMC on a UDP port of its own on
 * 127.0.0.1 (as a real BMC has an address of its own, so that clients pace and key sessions by
 * BMC), all served by one thread with one selector. Every answer is sent after the fleet's {@link
 * #latency} (0 at first), as a BMC that takes that long per message would, by one scheduler thread;
 * receiving never waits for it. Thousands of BMCs cost one socket each and no thread.
 *
 * <p>What a BMC answers is in {@link SimIpmiBmc}; it is written from the IPMI v2.0 specification
 * and checked against ipmitool and freeipmi, not against bamel's client.
 */
public final class SimIpmiFleet implements AutoCloseable {

  /** The default account of {@link #add(String, boolean)}: {@code admin}, administrator. */
  public static final SimIpmiUser ADMIN = new SimIpmiUser("admin", "password", 4);

  /**
   * The fleet's settings.
   *
   * @param maxSessions sessions one BMC holds at once
   * @param sessionTimeout how long a session lives without a valid message
   */
  public record Options(int maxSessions, Duration sessionTimeout) {
    /** 16 sessions a BMC, 60 s of inactivity. */
    public static final Options DEFAULTS = new Options(16, Duration.ofSeconds(60));
  }

  private final Options options;
  private final Selector selector;
  private final Thread receiver;
  private final ScheduledExecutorService sender;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, SimIpmiBmc> bmcs = new ConcurrentHashMap<>();
  private final Map<DatagramChannel, SimIpmiBmc> channelBmc = new ConcurrentHashMap<>();
  private final Queue<DatagramChannel> toRegister = new ConcurrentLinkedQueue<>();
  private final List<DatagramChannel> channels = new ArrayList<>();
  private final AtomicLong answered = new AtomicLong();
  private volatile long latencyNanos;
  private volatile boolean closed;

  private SimIpmiFleet(Options options) throws IOException {
    this.options = options;
    this.selector = Selector.open();
    this.sender =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("sim-ipmi-send").unstarted(r));
    this.receiver = Thread.ofPlatform().daemon().name("sim-ipmi-receive").start(this::receive);
  }

  /** An empty fleet with the default options. */
  public static SimIpmiFleet start() {
    return start(Options.DEFAULTS);
  }

  /** An empty fleet. */
  public static SimIpmiFleet start(Options options) {
    try {
      return new SimIpmiFleet(options);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Adds a BMC with the one account {@link #ADMIN}. */
  public SimIpmiBmc add(String id, boolean poweredOn) {
    return add(id, poweredOn, List.of(ADMIN));
  }

  /** Adds a BMC on a new port of 127.0.0.1 with these accounts. */
  public SimIpmiBmc add(String id, boolean poweredOn, List<SimIpmiUser> users) {
    try {
      DatagramChannel channel = DatagramChannel.open();
      channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      channel.configureBlocking(false);
      int port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
      SimIpmiBmc bmc =
          new SimIpmiBmc(
              id, port, users, poweredOn, options.maxSessions(), options.sessionTimeout(), random);
      if (bmcs.putIfAbsent(id, bmc) != null) {
        channel.close();
        throw new IllegalArgumentException("a BMC named " + id + " exists already");
      }
      channel.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 64 * 1024);
      synchronized (channels) {
        channels.add(channel);
      }
      channelBmc.put(channel, bmc);
      toRegister.add(channel);
      selector.wakeup();
      return bmc;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Adds {@code count} BMCs named {@code prefix0}, {@code prefix1}, ... */
  public List<SimIpmiBmc> addAll(int count, String prefix, boolean poweredOn) {
    List<SimIpmiBmc> added = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      added.add(add(prefix + i, poweredOn));
    }
    return added;
  }

  /** The BMC added under {@code id}. */
  public SimIpmiBmc bmc(String id) {
    SimIpmiBmc bmc = bmcs.get(id);
    if (bmc == null) {
      throw new IllegalArgumentException("no simulated BMC " + id);
    }
    return bmc;
  }

  /** Every BMC. */
  public Collection<SimIpmiBmc> bmcs() {
    return bmcs.values();
  }

  /** From now on every answer leaves after {@code latency}. */
  public void latency(Duration latency) {
    latencyNanos = latency.toNanos();
  }

  /** Datagrams answered so far, all BMCs. */
  public long answered() {
    return answered.get();
  }

  private void receive() {
    ByteBuffer buffer = ByteBuffer.allocate(2048);
    try {
      while (!closed) {
        selector.select();
        DatagramChannel pending;
        while ((pending = toRegister.poll()) != null) {
          pending.register(selector, SelectionKey.OP_READ, channelBmc.get(pending));
        }
        for (SelectionKey key : selector.selectedKeys()) {
          DatagramChannel channel = (DatagramChannel) key.channel();
          SimIpmiBmc bmc = (SimIpmiBmc) key.attachment();
          while (true) {
            buffer.clear();
            SocketAddress from = channel.receive(buffer);
            if (from == null) {
              break;
            }
            byte[] d = Arrays.copyOf(buffer.array(), buffer.position());
            byte[] reply;
            try {
              reply = bmc.answer(d, System.nanoTime());
            } catch (RuntimeException e) {
              reply = null; // a malformed datagram a real BMC would drop
            }
            if (reply != null) {
              send(channel, reply, from);
            }
          }
        }
        selector.selectedKeys().clear();
      }
    } catch (ClosedSelectorException | IOException e) {
      // closed
    }
  }

  private void send(DatagramChannel channel, byte[] reply, SocketAddress to) {
    long delay = latencyNanos;
    Runnable task =
        () -> {
          try {
            channel.send(ByteBuffer.wrap(reply), to);
            answered.incrementAndGet();
          } catch (IOException e) {
            // the client went away: UDP loses it
          }
        };
    if (delay <= 0) {
      task.run();
    } else {
      sender.schedule(task, delay, TimeUnit.NANOSECONDS);
    }
  }

  /** Stops answering and closes every port. */
  @Override
  public void close() {
    closed = true;
    sender.shutdownNow();
    try {
      selector.close();
      receiver.join(2000);
      synchronized (channels) {
        for (DatagramChannel c : channels) {
          c.close();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
