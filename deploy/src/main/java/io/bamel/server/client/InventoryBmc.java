package io.bamel.server.client;

import io.bamel.server.client.bmc.BmcCommand;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code bamel bmc --node ID}: reads the node from the inventory ({@code GET /api/v1/nodes/{id}})
 * with the client configuration ({@link ClientConfigs}) and builds its BMC ({@link NodeBmcs}); the
 * secret stays local, in the credentials directory ({@code --credentials}, else the config's {@code
 * credentialsDir}). Its options are added to {@code bamel bmc} as a mixin; the BMC's own {@code
 * --ca-file} keeps its meaning, so the server's CA is {@code --server-ca-file}.
 */
public final class InventoryBmc implements BmcCommand.NodeLookup {

  @Option(
      names = "--server",
      paramLabel = "URL",
      description = "with --node: the bamel server (default: BAMEL_SERVER, the config's server)")
  String server;

  @Option(
      names = "--token-file",
      paramLabel = "FILE",
      description = "with --node: a file holding the API token (default: BAMEL_TOKEN, the config)")
  Path tokenFile;

  @Option(
      names = "--server-ca-file",
      paramLabel = "FILE",
      description = "with --node: PEM CA certificates of an https bamel server")
  Path serverCaFile;

  private final ClientEnvironment environment;

  /** A lookup in {@code environment}'s client configuration. */
  public InventoryBmc(ClientEnvironment environment) {
    this.environment = environment;
  }

  @Override
  public BmcCommand.NodeBmc lookup(String nodeId) {
    try {
      ClientConfig config =
          ClientConfigs.load(
              environment, new ClientConfigs.Flags(server, tokenFile, serverCaFile, null));
      ApiClient api = new ApiClient(config);
      return NodeBmcs.of(
          api.get(ApiClient.API + "/nodes/" + ClientCommand.segment(nodeId)),
          config.credentialsDir());
    } catch (ClientException e) {
      throw new BmcCommand.NodeLookupException(e.getMessage());
    }
  }
}
