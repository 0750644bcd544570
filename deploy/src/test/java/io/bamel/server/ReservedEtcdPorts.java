package io.bamel.server;

import io.bamel.inventory.embedded.EtcdProcess;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Ports of its own for the embedded etcd of a test: two free ports written to the ports file of a
 * new data directory before {@code bamel server} or the demo starts on it, so that tests in
 * parallel JVMs do not all try 2379/2380 first. The ports are free when chosen; should one be taken
 * before etcd binds it, the embedded etcd moves to another as it does for a user.
 */
public final class ReservedEtcdPorts {

  private ReservedEtcdPorts() {}

  /** Writes two free ports to {@code etcdDataDir}'s ports file (made, mode 0700, if missing). */
  public static void reserve(Path etcdDataDir) throws IOException {
    PrivateFiles.directory(etcdDataDir);
    PrivateFiles.write(etcdDataDir.resolve("ports"), free().fileText());
  }

  /** Two different ports of 127.0.0.1 that are free now. */
  static EmbeddedEtcdPorts free() {
    int client = EtcdProcess.freePort();
    int peer = EtcdProcess.freePort();
    while (peer == client) {
      peer = EtcdProcess.freePort();
    }
    return new EmbeddedEtcdPorts(client, peer);
  }
}
