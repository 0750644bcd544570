package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bamel watch [nodes|pools] [--pool P]}: follows {@code GET /api/v1/watch} (Server-Sent
 * Events) and prints one line per change: the change's type and the object's {@link Rows} columns,
 * or with {@code -o json} each change's JSON on one line. The kind and pool filters are applied
 * here, on the client: the server's stream carries every change.
 */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    description = "Follows changes of nodes and pools (Ctrl-C stops).")
public final class WatchCommand extends ClientCommand {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Parameters(
      arity = "0..1",
      paramLabel = "KIND",
      completionCandidates = Kinds.class,
      description = "nodes or pools (default: both)")
  String kind;

  @Option(
      names = "--pool",
      paramLabel = "POOL",
      split = ",",
      description = "only changes of these pools' nodes (and of these pools)")
  List<String> pools = new ArrayList<>();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description = "json: each change as one JSON line (default: a table row)")
  String output;

  @Option(
      names = "--readings",
      description = "also show changes that only move a node's power readings (default: skipped)")
  boolean readings;

  @Option(
      names = "--max-events",
      paramLabel = "N",
      description = "stop after N changes shown (default: never)")
  long maxEvents;

  /** The kinds, for completion. */
  static final class Kinds extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Kinds() {
      super(List.of("nodes", "pools"));
    }
  }

  @Override
  protected int run(ApiClient api) {
    boolean json = output != null && output.equalsIgnoreCase("json");
    if (output != null && !json) {
      throw new CommandLine.ParameterException(spec.commandLine(), "-o takes json only");
    }
    String only = only(kind);
    WatchLines lines = new WatchLines(only, pools);
    long[] shown = {0};
    api.events(
        ApiClient.API + "/watch" + query(only),
        (name, data) -> {
          JsonNode change;
          try {
            change = JSON.readTree(data);
          } catch (IOException e) {
            return true;
          }
          String line = json ? lines.json(name, change, data) : lines.row(name, change, now());
          if (line != null) {
            out().println(line);
            out().flush();
            shown[0]++;
          }
          return maxEvents <= 0 || shown[0] < maxEvents;
        });
    return 0;
  }

  /**
   * The server-side filters ({@code kind}, {@code pool}, {@code skipReadings}: the server drops
   * what the client would not show, so a watch of one pool does not carry the fleet's changes); the
   * client filters again, which costs nothing when the server already did.
   */
  private String query(String only) {
    List<String> parts = new ArrayList<>();
    if (only != null) {
      parts.add("kind=" + only);
    }
    for (String pool : pools) {
      parts.add("pool=" + URLEncoder.encode(pool, StandardCharsets.UTF_8));
    }
    if (!readings) {
      parts.add("skipReadings=true");
    }
    return parts.isEmpty() ? "" : "?" + String.join("&", parts);
  }

  private String only(String k) {
    if (k == null) {
      return null;
    }
    return switch (k) {
      case "nodes", "node", "no" -> "node";
      case "pools", "pool" -> "pool";
      default ->
          throw new CommandLine.ParameterException(
              spec.commandLine(), "KIND must be nodes or pools, not " + k);
    };
  }
}
