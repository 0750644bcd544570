package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code bamel power on|off|pool|manual NODE...}: the operator's power request, {@code POST
 * /api/v1/nodes/{id}/power}. {@code on} and {@code off} take the node over ({@code powerPolicy:
 * manual}) and set its desired state; {@code pool} hands it back to its pool's controller; {@code
 * manual} takes it over without changing its state. The API has no pool-wide power action: a pool's
 * size is its config's {@code minNodes}/{@code maxNodes}.
 */
@Command(
    name = "power",
    mixinStandardHelpOptions = true,
    description = "Sets nodes' power: on, off, pool (back to its pool) or manual.")
public final class PowerCommand extends ClientCommand {

  @Parameters(
      index = "0",
      paramLabel = "ACTION",
      completionCandidates = Actions.class,
      description = "on, off, pool or manual")
  String action;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "NODE", description = "node ids")
  List<String> nodes;

  /** The actions, for completion. */
  static final class Actions extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Actions() {
      super(List.of("on", "off", "pool", "manual"));
    }
  }

  /** The request body of an action; null for an unknown one. Pure. */
  static String body(String action) {
    return switch (action.toLowerCase(Locale.ROOT)) {
      case "on" -> "{\"state\":\"on\"}";
      case "off" -> "{\"state\":\"off\"}";
      case "pool" -> "{\"policy\":\"pool\"}";
      case "manual" -> "{\"policy\":\"manual\"}";
      default -> null;
    };
  }

  @Override
  protected int run(ApiClient api) {
    String body = body(action);
    if (body == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "ACTION must be on, off, pool or manual, not " + action);
    }
    for (String node : nodes) {
      JsonNode answer =
          api.send(
              "POST",
              ApiClient.API + "/nodes/" + segment(node) + "/power",
              "application/json",
              body);
      JsonNode spec = answer.path("spec");
      String desired = spec.path("powerState").asText("off");
      String policy = spec.path("powerPolicy").asText("");
      out()
          .println(
              "node/"
                  + node
                  + " power "
                  + action
                  + " (desired "
                  + desired
                  + (policy.isEmpty() ? "" : ", policy " + policy)
                  + ")");
    }
    out().flush();
    return 0;
  }
}
