package io.bamel.server.client;

import java.net.URI;
import java.nio.file.Path;

/**
 * Where a client command sends its requests and how it authenticates, as resolved by {@link
 * ClientConfigs}. The token's value is held here only to build the {@code Authorization} header;
 * {@link #toString()} never shows it.
 *
 * @param server the server's base URL ({@code http://127.0.0.1:8080})
 * @param token the bearer token, or null to send none
 * @param tokenSource where the token came from, for error messages ({@code BAMEL_TOKEN}, a file)
 * @param caFile PEM CA certificates for an https server, or null for the JDK's trust store
 * @param credentialsDir the BMC credentials root ({@code bamel bmc --node}), or null
 */
public record ClientConfig(
    URI server, String token, String tokenSource, Path caFile, Path credentialsDir) {

  /** The server URL without a trailing slash, as messages name it. */
  public String serverText() {
    String s = server.toString();
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  @Override
  public String toString() {
    return "ClientConfig[server="
        + serverText()
        + ", token="
        + (token == null ? "none" : "from " + tokenSource)
        + ", caFile="
        + caFile
        + ", credentialsDir="
        + credentialsDir
        + "]";
  }
}
