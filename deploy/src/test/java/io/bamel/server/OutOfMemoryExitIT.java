package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.runtime.FatalErrorHandler;
import io.bamel.inventory.store.Codec;
import io.bamel.inventory.store.Keys;
import io.bamel.inventory.testing.EtcdCluster;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Out of memory is loud: the real {@code bin/bamel server}, given a 16 MiB heap (in which it runs
 * with an empty inventory) and an etcd holding more than that heap can cache, runs out of memory
 * while its inventory cache lists the fleet, and the process exits with {@link
 * FatalErrorHandler#EXIT_CODE} after one fatal log line, so Kubernetes or systemd restarts it
 * (before the fatal-error handler, the cache thread died and {@code /readyz} answered 503 forever
 * while {@code /healthz} stayed 200).
 *
 * <p>The launcher's own {@code -XX:+ExitOnOutOfMemoryError} (exit 3 on the first OutOfMemoryError,
 * on any thread) is switched off here through {@code JAVA_OPTS}, so that what is tested is the
 * handler, bamel's second line of defence for a JVM started without the launcher's flags. No test
 * hook: the load is real.
 *
 * <p>Without the launcher's flag an OutOfMemoryError inside gRPC's message reader is caught by gRPC
 * and reported as {@code CANCELLED: Failed to read message}: the cache retries and the process
 * lives on, not ready. That is why the launcher, the container and the systemd unit keep {@code
 * -XX:+ExitOnOutOfMemoryError}.
 */
class OutOfMemoryExitIT {

  /**
   * About 4 MB of node specs in etcd (40 short labels each), several times that once decoded. Small
   * values keep each page of the listing (2,000 keys, about 1.4 MB) small beside what the cache
   * holds, so the cache thread is the one that runs out: with pages of 3 MB the allocation of a
   * reply in gRPC's reader fails first, which gRPC reports as a cancelled call (see the class
   * comment).
   */
  private static final int NODES = 6_000;

  private static final int LABELS = 40;

  @Test
  void runningOutOfMemoryWhileCachingTheFleetEndsTheProcessWithTheFatalExitCode() throws Exception {
    try (EtcdCluster etcd = EtcdCluster.start(1);
        Client client = etcd.client()) {
      load(client);
      Map<String, String> env =
          BamelProcess.serverEnv(
              etcd.endpoints(),
              "node-controller",
              0,
              "-Xmx16m -XX:+UseSerialGC -XX:-ExitOnOutOfMemoryError");
      try (BamelProcess bamel = BamelProcess.start(env, "server")) {
        int code = bamel.awaitExit(Duration.ofSeconds(90));
        String output = bamel.output();
        assertThat(code).as(output).isEqualTo(FatalErrorHandler.EXIT_CODE);
        assertThat(bamel.lines())
            .as(output)
            .anyMatch(
                l ->
                    l.contains("ERROR")
                        && l.contains("fatal: thread ")
                        && l.contains("died of java.lang.OutOfMemoryError")
                        && l.contains("exiting with " + FatalErrorHandler.EXIT_CODE))
            .noneMatch(l -> l.contains("inventory cache: listed"))
            .noneMatch(l -> l.contains("bamel server is running"));
      }
    }
  }

  /** The fleet, in transactions of 128 puts sent all at once (etcd batches their writes). */
  private static void load(Client client) throws Exception {
    List<CompletableFuture<TxnResponse>> txns = new ArrayList<>();
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      String id = String.format(Locale.ROOT, "node-%05d", i);
      Map<String, String> labels = new HashMap<>();
      for (int k = 0; k < LABELS; k++) {
        labels.put("k" + k, "v" + i + "x" + k);
      }
      NodeSpec spec = NodeSpec.builder().name(id).pool("pool").labels(labels).build();
      ops.add(
          Op.put(
              ByteSequence.from(Keys.nodeSpec(id), StandardCharsets.UTF_8),
              ByteSequence.from(Codec.encode(spec)),
              PutOption.DEFAULT));
      if (ops.size() == 128 || i == NODES - 1) {
        txns.add(client.getKVClient().txn().Then(ops.toArray(Op[]::new)).commit());
        ops = new ArrayList<>();
      }
    }
    CompletableFuture.allOf(txns.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
  }
}
