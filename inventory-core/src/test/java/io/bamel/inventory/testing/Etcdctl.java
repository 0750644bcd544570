package io.bamel.inventory.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code etcdctl} (API v3) against a harness cluster: the tests read back what bamel wrote
 * with a client bamel did not write, and parse its JSON with a plain Jackson mapper, not bamel's.
 */
public final class Etcdctl {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Etcdctl() {}

  /**
   * One key as {@code etcdctl -w json} prints it: key and value decoded from base64 as UTF-8 (an
   * empty value, which etcdctl leaves out, as ""), its version (writes since its creation) and the
   * revision of its last write.
   */
  public record Kv(String key, String value, long version, long modRevision) {}

  /**
   * {@code etcdctl get ARGS -w json} on {@code cluster}'s endpoints: the keys it lists, in its
   * order, none when nothing matched. Throws when etcdctl fails or takes more than 30 s.
   */
  public static List<Kv> get(EtcdCluster cluster, String... args)
      throws IOException, InterruptedException {
    List<String> argv = new ArrayList<>();
    argv.add("etcdctl");
    argv.add("--endpoints=" + String.join(",", cluster.endpoints()));
    argv.add("get");
    argv.addAll(List.of(args));
    argv.add("-w");
    argv.add("json");
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().put("ETCDCTL_API", "3");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    String text = new String(out, StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("etcdctl " + argv + " failed: " + text);
    }
    List<Kv> kvs = new ArrayList<>();
    for (JsonNode kv : JSON.readTree(text).path("kvs")) {
      kvs.add(
          new Kv(
              decode(kv.path("key").asText()),
              decode(kv.path("value").asText("")),
              kv.path("version").asLong(),
              kv.path("mod_revision").asLong()));
    }
    return kvs;
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
