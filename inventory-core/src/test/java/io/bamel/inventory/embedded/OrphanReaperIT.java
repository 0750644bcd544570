package io.bamel.inventory.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded etcd left running by a bamel killed outright (its parent gone, re-parented to init)
 * is stopped by the next embedded start on the same data directory, which then starts on it. The
 * orphan is made with util-linux's {@code setsid --fork}, whose parent exits at once.
 */
class OrphanReaperIT {

  @Test
  void theNextEmbeddedStartStopsTheEtcdAKilledBamelLeftBehind(@TempDir Path tmp) throws Exception {
    List<String> setsid = OwnSession.prefix(System.getenv());
    assumeThat(setsid).as("util-linux setsid on the PATH").isNotEmpty();
    Path data = tmp.resolve("member");
    int client = EtcdProcess.freePort();
    int peer = EtcdProcess.freePort();
    String peerUrl = "http://127.0.0.1:" + peer;
    Process fork =
        new ProcessBuilder(
                setsid.get(0),
                "--fork",
                EtcdProcess.findBinary().toString(),
                "--name=orphan",
                "--data-dir=" + data,
                "--listen-client-urls=http://127.0.0.1:" + client,
                "--advertise-client-urls=http://127.0.0.1:" + client,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=orphan=" + peerUrl)
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("orphan.log").toFile())
            .start();
    assertThat(fork.waitFor(10, TimeUnit.SECONDS)).isTrue();
    ProcessHandle orphan = awaitEtcdOf(data, Duration.ofSeconds(10)).orElseThrow();
    try {
      // Left behind running: serving, its single-member configuration committed. Killed while still
      // bootstrapping, its data directory can hold no voter and no etcd could start on it.
      awaitHealthy(client, Duration.ofSeconds(30));
      assumeThat(orphan.parent().map(ProcessHandle::pid))
          .as("this platform re-parents orphans to init, not to a subreaper")
          .contains(1L);

      try (EtcdProcess next =
          new EtcdProcess(EtcdProcess.Config.single("orphan", data, client, peer), true, true)) {
        next.start().awaitHealthy();
        assertThat(orphan.isAlive()).as("the orphan was stopped").isFalse();
        assertThat(next.pid()).isNotEqualTo(orphan.pid());
      }
    } finally {
      orphan.destroyForcibly();
    }
  }

  private static void awaitHealthy(int clientPort, Duration within) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    URI health = URI.create("http://127.0.0.1:" + clientPort + "/health");
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      try {
        HttpResponse<String> answer =
            http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200 && answer.body().contains("\"health\":\"true\"")) {
          return;
        }
      } catch (java.io.IOException notYet) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the orphan etcd did not become healthy within " + within);
      }
      Thread.sleep(100);
    }
  }

  private static Optional<ProcessHandle> awaitEtcdOf(Path data, Duration within)
      throws InterruptedException {
    long end = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < end) {
      Optional<ProcessHandle> found =
          ProcessHandle.allProcesses()
              .filter(
                  p ->
                      p.info()
                          .commandLine()
                          .map(c -> c.contains("--data-dir=" + data + " "))
                          .orElse(false))
              .findFirst();
      if (found.isPresent()) {
        return found;
      }
      Thread.sleep(50);
    }
    return Optional.empty();
  }
}
