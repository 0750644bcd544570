package io.bamel.inventory.connection;

import io.etcd.jetcd.Client;
import io.grpc.ManagedChannel;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * The gRPC channel inside a jetcd client. jetcd 0.8 builds its channel itself and offers no handle
 * on it, while only the channel can say whether it is connected ({@link
 * ManagedChannel#getState(boolean)}) and cut a reconnect delay short ({@link
 * ManagedChannel#resetConnectBackoff()}): grpc-java's reconnect delay grows to 2 minutes and cannot
 * be configured. This reads {@code ClientImpl.connectionManager.getChannel()} (the channel jetcd
 * creates on first use). A jetcd that no longer has them yields empty, and bamel then reconnects on
 * grpc-java's own schedule; {@code EtcdMemberKillIT} (which checks {@link
 * EtcdReconnector#active()}) fails on such a jetcd.
 */
final class JetcdChannel {

  private JetcdChannel() {}

  /** The client's channel; empty when this jetcd keeps it elsewhere. */
  static Optional<ManagedChannel> of(Client client) {
    try {
      Field manager = client.getClass().getDeclaredField("connectionManager");
      manager.setAccessible(true);
      Object connections = manager.get(client);
      Method channel = connections.getClass().getDeclaredMethod("getChannel");
      channel.setAccessible(true);
      return Optional.of((ManagedChannel) channel.invoke(connections));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
