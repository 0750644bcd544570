package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.bamel.inventory.embedded.EtcdProcess;
import io.bamel.inventory.store.EtcdInventory;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.store.TestNodes;
import io.bamel.inventory.testing.EtcdCluster;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.HttpProbe;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A {@code bamel server} (API and both controllers) on a three-member etcd that goes away entirely
 * and comes back: {@code /readyz} turns 503 during the outage and 200 again once etcd is healthy,
 * the cache follows writes made after it, and the server leads its controllers again. Whether it
 * recovers within 3 s of etcd is a figure of the {@code etcd-faults} benchmark, not an assertion
 * here: the time is printed as information. The long outage lasts {@code
 * -Dbamel.it.longOutageSeconds} (75 s by default: past the 43 s and 70 s steps of grpc-java's own
 * reconnect delay; the benchmark runs 180 s).
 *
 * <p>The two outages run at the same time, each on its own etcd cluster and server (free ports, a
 * test instance each): they mostly wait, so the class takes about as long as the long one.
 */
@Execution(ExecutionMode.CONCURRENT)
class EtcdOutageIT {

  @RegisterExtension final EtcdExtension etcd = EtcdExtension.cluster(3);

  static final Duration LONG_OUTAGE =
      Duration.ofSeconds(Long.getLong("bamel.it.longOutageSeconds", 75));

  static final Pattern LEADS =
      Pattern.compile("bamel_leader\\{component=\"node-controller\"\\} 1(\\.0)?");

  @TempDir Path dir;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void readyAgainAfterAThirtySecondOutage() throws Exception {
    outage(Duration.ofSeconds(30));
  }

  @Test
  void readyAgainAfterALongOutage() throws Exception {
    outage(LONG_OUTAGE);
  }

  private void outage(Duration length) throws Exception {
    EtcdCluster cluster = etcd.cluster();
    try (BamelServer server = server("outage-a", cluster);
        Client client = cluster.client()) {
      String readyz = "http://127.0.0.1:" + server.port() + "/readyz";
      await().atMost(Duration.ofSeconds(30)).until(() -> HttpProbe.status(http, readyz) == 200);
      await().atMost(Duration.ofSeconds(30)).until(() -> leads(server));
      assertThat(leaderOf(client)).isEqualTo("outage-a");

      long stoppedAt = System.nanoTime();
      for (int i = 0; i < cluster.size(); i++) {
        cluster.stop(i);
      }
      await().atMost(Duration.ofSeconds(30)).until(() -> HttpProbe.status(http, readyz) == 503);
      Thread.sleep(Math.max(0, length.toMillis() - (System.nanoTime() - stoppedAt) / 1_000_000));

      for (int i = 0; i < cluster.size(); i++) {
        cluster.member(i).start(); // all at once: a member alone has no quorum to be healthy
      }
      for (int i = 0; i < cluster.size(); i++) {
        cluster.member(i).awaitHealthy();
      }
      long healthyAt = System.nanoTime();
      await().atMost(Duration.ofSeconds(60)).until(() -> HttpProbe.status(http, readyz) == 200);
      long readyAt = System.nanoTime();
      System.out.printf(
          Locale.ROOT,
          "EtcdOutageIT: %d s outage: /readyz 200 %.2f s after etcd was healthy (information)%n",
          length.toSeconds(),
          (readyAt - healthyAt) / 1e9);

      // The cache follows writes made after the outage, and the controllers have a leader again.
      // A client of its own: the test's first client reconnects on grpc-java's schedule.
      try (Client after = cluster.client()) {
        new EtcdInventory(after).createNode("after-outage", TestNodes.spec(7, "p"), null);
        String node = "http://127.0.0.1:" + server.port() + "/api/v1/nodes/after-outage";
        await().atMost(Duration.ofSeconds(30)).until(() -> HttpProbe.status(http, node) == 200);
        await().atMost(Duration.ofSeconds(60)).until(() -> leads(server));
        assertThat(leaderOf(after)).isEqualTo("outage-a");
      }
    }
  }

  private BamelServer server(String instance, EtcdCluster cluster) throws Exception {
    return DriverlessServer.start(dir, instance, EtcdProcess.freePort(), cluster.endpoints(), null);
  }

  /** Whether the server says (bamel_leader) it acts as the node controller's leader. */
  private boolean leads(BamelServer server) {
    try {
      String metrics =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      return metrics.lines().anyMatch(line -> LEADS.matcher(line).matches());
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The identity in the node controller's leadership key, or "" when none. */
  private static String leaderOf(Client client) {
    try {
      var kvs =
          client
              .getKVClient()
              .get(ByteSequence.from(Keys.leader("node-controller"), StandardCharsets.UTF_8))
              .get(5, TimeUnit.SECONDS)
              .getKvs();
      return kvs.isEmpty() ? "" : kvs.get(0).getValue().toString(StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "";
    }
  }
}
