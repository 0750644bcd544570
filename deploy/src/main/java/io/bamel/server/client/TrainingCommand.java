package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.server.client.bmc.BmcCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code bamel client-training} (hidden): the training run that the start-up archive is made from
 * at package time ({@code BAMEL_CLI_ARCHIVE=create bin/bamel client-training}). It goes through
 * what the client commands load — the command tree and its help, the config's YAML, JSON parsing,
 * the tables, a description, YAML output, completion, an HTTP request and a Redfish {@code bmc
 * status} over http and over https (TLS set up) to a closed loopback port (refused) — and prints
 * nothing; exit code 0.
 */
@Command(name = "client-training", hidden = true)
public final class TrainingCommand implements Callable<Integer> {

  private static final String NODE =
      "{\"id\":\"r1-u07\",\"revision\":42,\"spec\":{\"name\":\"R1-U07\",\"pool\":\"gpu\","
          + "\"rack\":\"R1\",\"mgmtAddress\":\"https://192.0.2.7\",\"powerInterface\":\"redfish\","
          + "\"bmcCredentials\":\"idrac\",\"labels\":{\"zone\":\"a\"},\"powerState\":\"on\"},"
          + "\"status\":{\"state\":\"ready\",\"stateSince\":\"2026-01-01T00:00:00Z\","
          + "\"powerState\":\"on\",\"nodeReady\":true},\"readings\":{\"powerWatts\":312.5}}";
  private static final String POOL =
      "{\"name\":\"gpu\",\"revision\":7,\"config\":{\"minNodes\":1,\"maxNodes\":8},"
          + "\"status\":{\"readyNodes\":2,\"utilization\":{\"cpu\":0.5}},\"memberCount\":2,"
          + "\"members\":[\"r1-u07\"]}";

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ObjectMapper json = new ObjectMapper();
    Instant now = Instant.parse("2026-01-02T00:00:00Z");
    try {
      JsonNode node = json.readTree(NODE);
      JsonNode pool = json.readTree(POOL);
      JsonNode nodes = json.readTree("{\"items\":[" + NODE + "],\"revision\":42}");
      JsonNode events =
          json.readTree(
              "{\"items\":[{\"time\":\"2026-01-01T00:00:00Z\",\"reason\":\"transition\","
                  + "\"from\":\"joining\",\"to\":\"ready\",\"principal\":\"ops\"}]}");
      StringBuilder sink = new StringBuilder();
      for (Output o : Output.values()) {
        sink.append(GetCommand.render(nodes, o, "node", "id", now));
      }
      sink.append(Describe.node(node, events, now)).append(Describe.pool(pool, now));
      sink.append(NodeQuery.of("zone=a", List.of("gpu"), List.of("ready")).queryString());
      sink.append(ClientConfigs.parse("server: http://127.0.0.1:8080\n", "training"));
      sink.append(CompletionCommand.script(spec.root().commandLine()));
      spec.root().commandLine().getUsageMessage();
      ClientConfig closed =
          new ClientConfig(URI.create("http://127.0.0.1:9"), null, null, null, null);
      try {
        new ApiClient(closed).get(ApiClient.API + "/nodes");
      } catch (ClientException expected) {
        sink.append(expected.getMessage());
      }
      CommandLine bmc = new CommandLine(new BmcCommand());
      java.io.StringWriter discard = new java.io.StringWriter();
      bmc.setOut(new java.io.PrintWriter(discard)).setErr(new java.io.PrintWriter(discard));
      bmc.execute(
          "status", "--interface", "redfish", "--address", "http://127.0.0.1:9", "--timeout", "1");
      // The https:// path sets up TLS (the JVM's trust store) before it connects: its classes go
      // into the archive too, a BMC being usually reached over https.
      bmc.execute(
          "status", "--interface", "redfish", "--address", "https://127.0.0.1:9", "--timeout", "1");
      return sink.isEmpty() ? 1 : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
