package io.bamel.power.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import okhttp3.Dns;

/**
 * An OkHttp {@link Dns} that knows exactly one host name and answers it with the addresses that
 * were resolved (and checked) before; any other name fails. A record, so two clients pinned to the
 * same host and addresses share OkHttp's pooled connections.
 *
 * @param host the host name, as {@link HostAddresses#normalize} gives it
 * @param addresses the addresses to connect to
 */
public record PinnedDns(String host, List<InetAddress> addresses) implements Dns {

  /** Copies the addresses. */
  public PinnedDns {
    host = HostAddresses.normalize(host);
    addresses = List.copyOf(addresses);
  }

  @Override
  public List<InetAddress> lookup(String hostname) throws UnknownHostException {
    if (!HostAddresses.normalize(hostname).equals(host) || addresses.isEmpty()) {
      throw new UnknownHostException(hostname + " is not the pinned BMC host " + host);
    }
    return addresses;
  }
}
