package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bamel inspect NODE}: asks the server to read the node's hardware from its BMC ({@code POST
 * /api/v1/nodes/{id}/inspect}, 202), then reads the node every second until {@code
 * status.hardware.inspectedAt} changes, and shows the hardware. A server without the route answers
 * with its error, which is printed as it is.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = "Reads a node's hardware from its BMC through the server, and shows it.")
public final class InspectCommand extends ClientCommand {

  @Parameters(paramLabel = "NODE", description = "the node's id")
  String node;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "120",
      description = "give up waiting after this long (default ${DEFAULT-VALUE})")
  long timeoutSeconds;

  @Option(names = "--poll-ms", defaultValue = "1000", hidden = true)
  long pollMillis;

  /** The inspection time of a node view, or null. Pure. */
  static String inspectedAt(JsonNode view) {
    JsonNode at = view.path("status").path("hardware").path("inspectedAt");
    return at.isMissingNode() || at.isNull() ? null : at.asText();
  }

  @Override
  protected int run(ApiClient api) {
    String path = ApiClient.API + "/nodes/" + segment(node);
    String before = inspectedAt(api.get(path));
    api.send("POST", path + "/inspect", "application/json", "{}");
    spec.commandLine().getErr().println("node/" + node + " inspection requested; waiting");
    spec.commandLine().getErr().flush();
    JsonNode after =
        api.poll(
            path,
            v -> inspectedAt(v) != null && !Objects.equals(inspectedAt(v), before),
            Duration.ofMillis(pollMillis),
            Duration.ofSeconds(timeoutSeconds));
    if (after == null) {
      throw new ClientException(
          "node/"
              + node
              + " was not inspected within "
              + timeoutSeconds
              + " s (see bamel describe node "
              + node
              + " for its last error)");
    }
    StringBuilder out = new StringBuilder();
    Describe.section(out, "Hardware", after.path("status").path("hardware"), now());
    out().print("Name:  " + node + "\n" + out);
    out().flush();
    return 0;
  }
}
