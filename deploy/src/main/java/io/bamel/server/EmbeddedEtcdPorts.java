package io.bamel.server;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * The client and peer ports of the embedded etcd on 127.0.0.1, and the decisions about them, with
 * no socket: which pair to try first (the one remembered in the data directory, else the preferred
 * 2379/2380), which ports etcd said it could not bind, and which pair to try next (each refused
 * port replaced by a fresh one, the other kept, so the client endpoint moves only when its own port
 * is taken). Whether a port is free is learnt from etcd's own bind, never checked beforehand: a
 * check is out of date by the time etcd binds.
 *
 * @param client the client port (the endpoint bamel, {@code etcdctl} and {@code bamel etcd} use)
 * @param peer the peer port (etcd's raft traffic; a single member talks to nobody on it)
 */
record EmbeddedEtcdPorts(int client, int peer) {

  /** The ports of a new data directory, when etcd can bind them: etcd's well-known ones. */
  static final EmbeddedEtcdPorts PREFERRED = new EmbeddedEtcdPorts(2379, 2380);

  /** Fresh ports drawn for one replacement at most before giving up. */
  private static final int DRAWS = 20;

  /**
   * Both ports in 1..65535, and different.
   *
   * @throws IllegalArgumentException otherwise
   */
  EmbeddedEtcdPorts {
    if (client < 1 || client > 65535 || peer < 1 || peer > 65535 || client == peer) {
      throw new IllegalArgumentException(
          "etcd ports must be two different numbers in 1..65535, not " + client + " and " + peer);
    }
  }

  /**
   * The pair in the text of a ports file: the client port on the first line, the peer port on the
   * second.
   *
   * @throws IllegalArgumentException when the text is not that
   */
  static EmbeddedEtcdPorts parse(String text) {
    String[] lines = text.strip().split("\\R");
    if (lines.length != 2) {
      throw new IllegalArgumentException(
          "expected two lines (client port, peer port), found " + lines.length);
    }
    try {
      return new EmbeddedEtcdPorts(
          Integer.parseInt(lines[0].strip()), Integer.parseInt(lines[1].strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected two port numbers: " + e.getMessage());
    }
  }

  /** The text of a ports file holding this pair, as {@link #parse(String)} reads it. */
  String fileText() {
    return client + "\n" + peer + "\n";
  }

  /** The pair to try first: the one the data directory remembers, else {@code preferred}. */
  static EmbeddedEtcdPorts first(
      Optional<EmbeddedEtcdPorts> remembered, EmbeddedEtcdPorts preferred) {
    return remembered.orElse(preferred);
  }

  /** Whether {@code port} is one of the two. */
  boolean uses(int port) {
    return port == client || port == peer;
  }

  /**
   * The pair to try after etcd could not bind {@code refused}: each of this pair's ports in it
   * replaced by a port from {@code fresh} that is in neither {@code avoid} (every port refused so
   * far) nor this pair; the other port kept.
   *
   * @throws IllegalArgumentException when {@code refused} holds neither port of this pair
   * @throws IllegalStateException when {@code fresh} gives no usable port in {@value #DRAWS} draws
   */
  EmbeddedEtcdPorts replacing(Set<Integer> refused, Set<Integer> avoid, IntSupplier fresh) {
    if (!refused.contains(client) && !refused.contains(peer)) {
      throw new IllegalArgumentException(
          "etcd refused " + refused + ", neither of client " + client + " and peer " + peer);
    }
    Set<Integer> taken = new LinkedHashSet<>(avoid);
    taken.addAll(refused);
    taken.add(client);
    taken.add(peer);
    int newClient = refused.contains(client) ? draw(fresh, taken) : client;
    taken.add(newClient);
    int newPeer = refused.contains(peer) ? draw(fresh, taken) : peer;
    return new EmbeddedEtcdPorts(newClient, newPeer);
  }

  private static int draw(IntSupplier fresh, Set<Integer> taken) {
    for (int i = 0; i < DRAWS; i++) {
      int port = fresh.getAsInt();
      if (!taken.contains(port)) {
        return port;
      }
    }
    throw new IllegalStateException(
        "no usable port in " + DRAWS + " tries: each was one already taken " + taken);
  }

  @Override
  public String toString() {
    return "client " + client + ", peer " + peer;
  }
}
