package io.bamel.server;

import java.util.ArrayList;
import java.util.List;

/**
 * The start-up banner's etcd lines, the same for {@code bamel server} and {@code bamel demo}: the
 * endpoints bamel uses ({@code etcd:}) and, for the embedded etcd, the whole {@code etcdctl}
 * command that reaches it with its generated client certificate ({@code etcdctl:}); file paths
 * only, never a key's content.
 */
public final class EtcdBanner {

  private EtcdBanner() {}

  /** The lines, each starting with two spaces, for a started {@code server}. */
  public static List<String> lines(BamelServer server) {
    String endpoints = String.join(",", server.etcdEndpoints());
    List<String> lines = new ArrayList<>();
    lines.add("  etcd:    " + endpoints);
    server
        .embeddedEtcdFiles()
        .ifPresent(
            files ->
                lines.add(
                    "  etcdctl: etcdctl --endpoints="
                        + endpoints
                        + " --cacert="
                        + files.caCert()
                        + " --cert="
                        + files.clientCert()
                        + " --key="
                        + files.clientKey()));
    return lines;
  }
}
