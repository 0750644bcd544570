package io.bamel.dcim.netbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.store.Codec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes report-back to NetBox: the changes {@link ReportBackPlan} finds, in bulk {@code PATCH
 * /api/dcim/devices/} requests of at most {@code batchSize} devices ({@code [{"id": 7,
 * "custom_fields": {"bamel_power": "on", "bamel_state": "ready"}}, ...]}), spaced to at most {@code
 * requestsPerSecond}. A device's values are remembered once NetBox took them, so an unchanged fleet
 * sends nothing; a failed request ends the round, and its devices are sent again next round. Not
 * thread-safe: the NetBox source calls it from its one thread.
 */
final class ReportBackSender {

  /** What one round did. */
  record Round(int devices, int requests, String error) {}

  private final NetBoxSettings.ReportBack settings;
  private final NetBoxClient client;
  private final Clock clock;
  private Map<Long, ReportBackPlan.Values> known = new HashMap<>();
  private Instant lastRequest = Instant.EPOCH;

  ReportBackSender(NetBoxSettings.ReportBack settings, NetBoxClient client, Clock clock) {
    this.settings = settings;
    this.client = client;
    this.clock = clock;
  }

  /** Takes NetBox's values from the devices a pull read. */
  void learn(List<JsonNode> devices) {
    known = ReportBackPlan.known(devices, settings.powerField(), settings.stateField());
  }

  /** Reports what changed among {@code nodes}. */
  Round report(Collection<Node> nodes) {
    List<ReportBackPlan.Change> changes = ReportBackPlan.changes(nodes, known);
    int sent = 0;
    int requests = 0;
    int batch = Math.max(1, settings.batchSize());
    for (int from = 0; from < changes.size(); from += batch) {
      List<ReportBackPlan.Change> part =
          changes.subList(from, Math.min(changes.size(), from + batch));
      ArrayNode body = Codec.mapper().createArrayNode();
      for (ReportBackPlan.Change c : part) {
        ObjectNode o = body.addObject();
        o.put("id", c.device());
        ObjectNode cf = o.putObject("custom_fields");
        cf.put(settings.powerField(), c.values().power());
        cf.put(settings.stateField(), c.values().state());
      }
      pace();
      try {
        requests++;
        client.patch("/api/dcim/devices/", body);
      } catch (NetBoxException e) {
        return new Round(sent, requests, e.getMessage());
      }
      part.forEach(c -> known.put(c.device(), c.values()));
      sent += part.size();
    }
    return new Round(sent, requests, null);
  }

  private void pace() {
    if (settings.requestsPerSecond() <= 0) {
      return;
    }
    Duration gap = Duration.ofNanos((long) (1_000_000_000L / settings.requestsPerSecond()));
    Instant next = lastRequest.plus(gap);
    Duration wait = Duration.between(clock.instant(), next);
    if (!wait.isNegative() && !wait.isZero()) {
      try {
        Thread.sleep(wait.toMillis(), wait.toNanosPart() % 1_000_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NetBoxException("interrupted while pacing report-back", e);
      }
    }
    lastRequest = clock.instant();
  }
}
