package io.bamel.inventory.testing;

import io.bamel.inventory.embedded.EtcdProcess;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real etcd cluster of one or three members on free loopback ports, each with a temporary data
 * directory, for tests and benchmarks. Members can be stopped, restarted and killed; the cluster
 * can be compacted. {@link #close()} stops every member and deletes the data: no process is left
 * behind (a JVM shutdown hook kills members that were not stopped).
 */
public final class EtcdCluster implements AutoCloseable {

  /** Starts tried before a port taken between its choice and etcd's bind fails the test. */
  private static final int START_ATTEMPTS = 5;

  private final Path dir;
  private final List<EtcdProcess> members = new ArrayList<>();
  private final List<Client> clients = new ArrayList<>();
  private Client admin;

  private EtcdCluster(int size) {
    if (size != 1 && size != 3) {
      throw new IllegalArgumentException("an etcd cluster of 1 or 3 members, not " + size);
    }
    try {
      dir = Files.createTempDirectory("bamel-etcd-");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    List<int[]> ports = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      ports.add(new int[] {EtcdProcess.freePort(), EtcdProcess.freePort()});
    }
    String initial =
        Stream.iterate(0, i -> i + 1)
            .limit(size)
            .map(i -> "m" + i + "=http://127.0.0.1:" + ports.get(i)[1])
            .collect(Collectors.joining(","));
    String token = "bamel-test-" + dir.getFileName();
    try {
      for (int i = 0; i < size; i++) {
        members.add(
            new EtcdProcess(
                new EtcdProcess.Config(
                    "m" + i,
                    dir.resolve("m" + i + ".etcd"),
                    ports.get(i)[0],
                    ports.get(i)[1],
                    initial,
                    true,
                    token,
                    null)));
      }
    } catch (RuntimeException e) {
      deleteDir(); // for example etcd is missing: leave nothing behind
      throw e;
    }
  }

  /**
   * Starts a cluster of {@code size} (1 or 3) members and waits until it is healthy.
   *
   * @throws IllegalStateException when etcd is missing (naming the package) or does not start
   */
  public static EtcdCluster start(int size) {
    for (int attempt = 1; ; attempt++) {
      EtcdCluster cluster = new EtcdCluster(size);
      try {
        cluster.members.forEach(EtcdProcess::start);
        cluster.members.forEach(EtcdProcess::awaitHealthy);
        return cluster;
      } catch (RuntimeException e) {
        cluster.close();
        // A free port is free only when it is chosen: another test's etcd, started in a parallel
        // fork, can bind it before this one does. Such a start is tried again on new ports.
        if (attempt == START_ATTEMPTS || !portTaken(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean portTaken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !EtcdProcess.portsInUse(t.getMessage()).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** The number of members. */
  public int size() {
    return members.size();
  }

  /** Member {@code i}. */
  public EtcdProcess member(int i) {
    return members.get(i);
  }

  /** Every member's client URL. */
  public List<String> endpoints() {
    return members.stream().map(EtcdProcess::clientUrl).toList();
  }

  /** A new client of every member, closed with the cluster. */
  public synchronized Client client() {
    Client client = Client.builder().endpoints(endpoints().toArray(String[]::new)).build();
    clients.add(client);
    return client;
  }

  /** Stops member {@code i} gracefully. */
  public void stop(int i) {
    members.get(i).stop();
  }

  /** Kills member {@code i} with SIGKILL. */
  public void kill(int i) {
    members.get(i).kill();
  }

  /** Starts member {@code i} again on its data and waits until it is healthy. */
  public void restart(int i) {
    members.get(i).start().awaitHealthy();
  }

  /** Stops and starts member {@code i}. */
  public void bounce(int i) {
    stop(i);
    restart(i);
  }

  /** The index of the member that leads the Raft group now, or -1 when none does. */
  public int leader() {
    Client client = admin();
    try {
      for (int i = 0; i < members.size(); i++) {
        if (!members.get(i).isRunning()) {
          continue;
        }
        var status =
            client
                .getMaintenanceClient()
                .statusMember(members.get(i).clientUrl())
                .get(5, TimeUnit.SECONDS);
        if (status.getLeader() == status.getHeader().getMemberId()) {
          return i;
        }
      }
      return -1;
    } catch (Exception e) {
      throw new IllegalStateException("cannot read member status", e);
    }
  }

  /** Compacts the key-value history up to {@code revision} (physically, waiting for it). */
  public void compact(long revision) {
    try {
      admin()
          .getKVClient()
          .compact(
              revision,
              io.etcd.jetcd.options.CompactOption.builder().withCompactPhysical(true).build())
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("compaction to " + revision + " failed", e);
    }
  }

  /** The current revision. */
  public long revision() {
    try {
      return admin()
          .getKVClient()
          .get(ByteSequence.from(new byte[] {0}))
          .get(10, TimeUnit.SECONDS)
          .getHeader()
          .getRevision();
    } catch (Exception e) {
      throw new IllegalStateException("cannot read the revision", e);
    }
  }

  /** Deletes every key (between tests that share a cluster). */
  public void clear() {
    try {
      ByteSequence zero = ByteSequence.from(new byte[] {0});
      admin()
          .getKVClient()
          .delete(zero, DeleteOption.builder().withRange(zero).build())
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot clear etcd", e);
    }
  }

  /** Waits until a client can read through any member (after restarts or a leader change). */
  public void awaitAvailable(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        revision();
        return;
      } catch (RuntimeException e) {
        last = e;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for etcd", e);
      }
    }
    throw new IllegalStateException("etcd not available within " + timeout, last);
  }

  /** The cluster's own client for status, compaction and clean-up, created once. */
  private synchronized Client admin() {
    if (admin == null) {
      admin = client();
    }
    return admin;
  }

  /** Kills every member (the data is thrown away), closes the clients and deletes the data. */
  @Override
  public void close() {
    synchronized (this) {
      clients.forEach(Client::close);
      clients.clear();
      admin = null;
    }
    members.forEach(EtcdProcess::kill);
    deleteDir();
  }

  private void deleteDir() {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Best effort: the directory is under the system temp dir.
    }
  }
}
