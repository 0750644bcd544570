package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bamel get nodes|pools}: the inventory as a kubectl-like table ({@link Rows}), or as JSON,
 * YAML or names. Nodes can be filtered by label selector, pool and state ({@link NodeQuery}).
 */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = "Lists nodes or pools.",
    subcommands = {GetCommand.Nodes.class, GetCommand.Pools.class})
public final class GetCommand implements Runnable {

  @picocli.CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "name what to get: nodes or pools");
  }

  /** The output option shared by both listings. */
  static final class OutputOption {
    @Option(
        names = {"-o", "--output"},
        paramLabel = "FORMAT",
        completionCandidates = Formats.class,
        description = "wide, json, yaml or name (default: a table)")
    String output;

    Output parse(CommandLine line) {
      try {
        return Output.parse(output);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(line, e.getMessage());
      }
    }
  }

  /** The values of {@code -o}, for completion. */
  static final class Formats extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Formats() {
      super(List.of("wide", "json", "yaml", "name"));
    }
  }

  /** {@code bamel get nodes}. */
  @Command(
      name = "nodes",
      aliases = {"node", "no"},
      mixinStandardHelpOptions = true,
      description = "Lists nodes: NAME POOL STATE POWER (desired/observed) READY AGE.")
  public static final class Nodes extends ClientCommand {

    @Parameters(arity = "0..*", paramLabel = "NAME", description = "only these nodes")
    List<String> names = new ArrayList<>();

    @Option(
        names = {"-l", "--selector"},
        paramLabel = "SELECTOR",
        description = "label selector, as kubectl's (zone=a,rack!=r9, env in (a,b), !gpu)")
    String selector;

    @Option(
        names = "--pool",
        paramLabel = "POOL",
        split = ",",
        description = "only nodes of these pools (repeat or separate with commas)")
    List<String> pools = new ArrayList<>();

    @Option(
        names = "--state",
        paramLabel = "STATE",
        split = ",",
        description = "only nodes in these lifecycle states (ready, off, error, ...)")
    List<String> states = new ArrayList<>();

    @CommandLine.Mixin OutputOption output;

    @Override
    protected int run(ApiClient api) {
      Output format = output.parse(spec.commandLine());
      JsonNode list;
      if (names.isEmpty()) {
        list = Listings.nodes(api, NodeQuery.of(selector, pools, states));
      } else {
        var items = JsonNodeFactory.instance.arrayNode();
        for (String name : names) {
          items.add(api.get(ApiClient.API + "/nodes/" + segment(name)));
        }
        list = JsonNodeFactory.instance.objectNode();
        ((ObjectNode) list).set("items", items);
      }
      show(this, list, format, "node", "id");
      return 0;
    }
  }

  /** {@code bamel get pools}. */
  @Command(
      name = "pools",
      aliases = {"pool"},
      mixinStandardHelpOptions = true,
      description = "Lists pools: NAME NODES READY PENDING DESIRED MIN MAX.")
  public static final class Pools extends ClientCommand {

    @Parameters(arity = "0..*", paramLabel = "NAME", description = "only these pools")
    List<String> names = new ArrayList<>();

    @CommandLine.Mixin OutputOption output;

    @Override
    protected int run(ApiClient api) {
      Output format = output.parse(spec.commandLine());
      JsonNode list = Listings.pools(api);
      if (!names.isEmpty()) {
        var items = JsonNodeFactory.instance.arrayNode();
        for (String name : names) {
          items.add(api.get(ApiClient.API + "/pools/" + segment(name)));
        }
        list = JsonNodeFactory.instance.objectNode();
        ((ObjectNode) list).set("items", items);
      }
      show(this, list, format, "pool", "name");
      return 0;
    }
  }

  /** Prints a listing; an empty table is {@code No resources found.} on standard error. */
  static void show(ClientCommand command, JsonNode list, Output format, String kind, String key) {
    String text = render(list, format, kind, key, command.now());
    if (text.isEmpty() && (format == Output.TABLE || format == Output.WIDE)) {
      command.spec.commandLine().getErr().println("No resources found.");
      command.spec.commandLine().getErr().flush();
    }
    command.out().print(text);
    command.out().flush();
  }

  /** The text of a listing in {@code format}. Pure. */
  public static String render(JsonNode list, Output format, String kind, String key, Instant now) {
    switch (format) {
      case JSON, YAML -> {
        return format.document(list);
      }
      case NAME -> {
        StringBuilder s = new StringBuilder();
        list.path("items")
            .forEach(i -> s.append(kind).append('/').append(i.path(key).asText()).append('\n'));
        return s.toString();
      }
      default -> {
        boolean wide = format == Output.WIDE;
        boolean node = kind.equals("node");
        JsonNode items = list.path("items");
        if (items.isEmpty()) {
          return "";
        }
        Table table =
            new Table(
                node ? (wide ? Rows.NODE_WIDE : Rows.NODE) : (wide ? Rows.POOL_WIDE : Rows.POOL));
        for (JsonNode item : items) {
          table.add(node ? Rows.node(item, wide, now) : Rows.pool(item, wide, now));
        }
        return table.render();
      }
    }
  }
}
