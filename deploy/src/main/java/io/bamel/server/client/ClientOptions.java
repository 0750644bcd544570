package io.bamel.server.client;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options every client command takes: where the server is and how to reach it. There is
 * deliberately no option carrying a token: a command line is visible to every user of the machine
 * ({@code ps}, shell history), so a token comes from {@code BAMEL_TOKEN} or a file.
 */
public final class ClientOptions {

  @Option(
      names = "--server",
      paramLabel = "URL",
      description =
          "the bamel server (default: BAMEL_SERVER, the config's server, then "
              + ClientConfigs.DEFAULT_SERVER
              + ")")
  String server;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description = "a file holding the API token (default: BAMEL_TOKEN, the config's tokenFile)")
  Path tokenFile;

  @Option(
      names = "--ca-file",
      paramLabel = "FILE",
      description = "PEM CA certificates for an https server (default: the config's caFile)")
  Path caFile;

  /** The flags as {@link ClientConfigs} takes them. */
  ClientConfigs.Flags flags(Path credentialsDir) {
    return new ClientConfigs.Flags(server, tokenFile, caFile, credentialsDir);
  }
}
