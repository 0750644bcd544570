package io.bamel.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The warnings {@code bamel server} logs at start about a configuration that works but leaves a
 * door open: one line each, saying what to set. Pure: it looks at the settings only (the tokens
 * file's mode is checked where the file is read).
 */
public final class SecurityWarnings {

  private SecurityWarnings() {}

  /** The warnings for {@code c}, in a stable order; empty when there is nothing to say. */
  public static List<String> of(ServerConfig c) {
    List<String> out = new ArrayList<>();
    if (!c.embeddedEtcd()
        && c.etcd().endpoints().stream().noneMatch(e -> e.startsWith("https://"))
        && c.etcd().user().isEmpty()) {
      out.add(
          "etcd.endpoints use plain http:// without etcd.user: anyone who reaches etcd can change"
              + " the inventory and what bamel powers; set https:// endpoints with etcd.caFile,"
              + " etcd.certFile and etcd.keyFile (client certificates), or etcd.user and"
              + " etcd.passwordFile (etcd authentication)");
    }
    if (!c.http().tls().enabled() && !isLoopback(c.http().host())) {
      out.add(
          "http.host is "
              + c.http().host()
              + " without TLS: API tokens cross the network in clear text; set http.tls.certFile"
              + " and http.tls.keyFile, or http.host: 127.0.0.1");
    }
    if (c.netbox().enabled() && c.netbox().url().startsWith("http://")) {
      String host = java.net.URI.create(c.netbox().url()).getHost();
      if (host != null && !isLoopback(host)) {
        out.add(
            "netbox.url is plain http:// to "
                + host
                + ": the NetBox token and the inventory cross the network in clear text; use"
                + " https:// (netbox.caFile for a private CA)");
      }
    }
    return out;
  }

  /** Whether {@code host} is a loopback address or name (no name is resolved). */
  static boolean isLoopback(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return h.equals("localhost")
        || h.equals("::1")
        || h.equals("0:0:0:0:0:0:0:1")
        || h.matches("127(\\.\\d{1,3}){3}");
  }
}
