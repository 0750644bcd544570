package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code bamel describe node|pool NAME}: one node (spec, status, readings, the last events) or one
 * pool (config, status, members) as {@link Describe} writes them.
 */
@Command(
    name = "describe",
    mixinStandardHelpOptions = true,
    description = "Shows one node (spec, status, readings, events) or one pool.")
public final class DescribeCommand extends ClientCommand {

  @Parameters(
      index = "0",
      paramLabel = "KIND",
      completionCandidates = Kinds.class,
      description = "node or pool")
  String kind;

  @Parameters(index = "1", paramLabel = "NAME", description = "the node's id or the pool's name")
  String name;

  /** The kinds, for completion. */
  static final class Kinds extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Kinds() {
      super(java.util.List.of("node", "pool"));
    }
  }

  @Override
  protected int run(ApiClient api) {
    switch (kind) {
      case "node", "nodes", "no" -> {
        String path = ApiClient.API + "/nodes/" + segment(name);
        JsonNode node = api.get(path);
        JsonNode events = api.get(path + "/events");
        out().print(Describe.node(node, events, now()));
      }
      case "pool", "pools" -> {
        JsonNode pool = api.get(ApiClient.API + "/pools/" + segment(name));
        out().print(Describe.pool(pool, now()));
      }
      default ->
          throw new CommandLine.ParameterException(
              spec.commandLine(), "KIND must be node or pool, not " + kind);
    }
    out().flush();
    return 0;
  }
}
