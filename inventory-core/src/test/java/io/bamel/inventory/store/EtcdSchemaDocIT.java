package io.bamel.inventory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import io.bamel.inventory.leader.LeaderElection;
import io.bamel.inventory.leader.Leaderships;
import io.bamel.inventory.model.NodeEvent;
import io.bamel.inventory.model.NodeReadings;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.NodeStatus;
import io.bamel.inventory.model.PoolConfig;
import io.bamel.inventory.model.PoolStatus;
import io.bamel.inventory.sharding.ReplicaRegistry;
import io.bamel.inventory.testing.EtcdExtension;
import io.bamel.inventory.testing.Etcdctl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/etcd-schema.md, read back with the real {@code etcdctl}: the test parses the page's key
 * table and its JSON examples, writes each example through bamel's own store, leader election and
 * replica registry, then lists {@code /baremetal/} with {@code etcdctl get --prefix -w json} and
 * checks that every key there is one the table documents, every documented key (but the reserved
 * ones) is there with the value kind the table gives, and every field of every example is in the
 * stored value with the example's JSON type. The examples are read with a strict reader (no unknown
 * field kept), so an example naming a field the model does not have fails too. The page and the
 * code cannot drift apart without this test failing.
 */
class EtcdSchemaDocIT {

  @RegisterExtension
  static final EtcdExtension ETCD = EtcdExtension.singleNode().clearBetweenTests();

  private static final Path DOC = Path.of("..", "docs", "etcd-schema.md");

  /** A documented key: its template and its value column. */
  record DocumentedKey(String template, String value) {
    Pattern pattern() {
      return Pattern.compile(Pattern.quote(template).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q"));
    }

    boolean reserved() {
      return value.equals("reserved");
    }
  }

  @Test
  void everyDocumentedKeyAndFieldIsWhatEtcdctlReads() throws Exception {
    String doc = Files.readString(DOC);
    List<DocumentedKey> table = keyTable(doc);
    Map<String, String> examples = jsonExamples(doc);
    assertThat(table).as("the key table of %s", DOC).hasSizeGreaterThanOrEqualTo(10);
    assertThat(examples).as("the JSON examples of %s", DOC).hasSizeGreaterThanOrEqualTo(6);

    // The strict reader is strict: a name the model does not know fails.
    assertThatThrownBy(() -> strict("{\"powerWats\":1}", NodeReadings.class))
        .hasMessageContaining("powerWats");

    String identity = "mgmt-1-4711";
    String replica = "replica-a";
    try (LeaderElection nodeLeader =
            new LeaderElection(
                ETCD.cluster().client(),
                "node-controller",
                identity,
                LeaderElection.Options.DEFAULTS);
        LeaderElection poolLeader =
            new LeaderElection(
                ETCD.cluster().client(),
                "pool-controller",
                identity,
                LeaderElection.Options.DEFAULTS);
        ReplicaRegistry replicas =
            new ReplicaRegistry(
                ETCD.cluster().client(), replica, ReplicaRegistry.Options.DEFAULTS)) {
      WriteFence nodeFence = Leaderships.lead(nodeLeader);
      WriteFence poolFence = Leaderships.lead(poolLeader);
      replicas.start();
      assertThat(replicas.awaitRegistered(Duration.ofSeconds(20))).isTrue();

      // Every example, written through bamel's store.
      EtcdInventory store = new EtcdInventory(ETCD.cluster().client());
      String spec = example(examples, "/baremetal/nodes/r1-u07/spec");
      String status = example(examples, "/baremetal/nodes/r1-u07/status");
      String event = example(examples, "/baremetal/events/r1-u07/0000000000000042");
      String readings = example(examples, "/baremetal/nodes/r1-u07/metrics");
      String poolConfig = example(examples, "/baremetal/pools/gpu/config");
      String poolStatus = example(examples, "/baremetal/pools/gpu/status");
      String poolHistory = example(examples, "/baremetal/pools/gpu/history");
      store.createNode("r1-u07", strict(spec, NodeSpec.class), null);
      store.putStatus(
          "r1-u07", 0, strict(status, NodeStatus.class), strict(event, NodeEvent.class), nodeFence);
      store.putReadings("r1-u07", strict(readings, NodeReadings.class), nodeFence);
      store.putPoolConfig("gpu", strict(poolConfig, PoolConfig.class), 0);
      store.putPoolStatus("gpu", strict(poolStatus, PoolStatus.class), poolFence);
      // The store does not read a demand history (the pool controller's form, checked against
      // this page by its HistoryJsonTest): the example is written as it is.
      store.putPoolHistory("gpu", poolHistory.getBytes(StandardCharsets.UTF_8), poolFence);

      Map<String, String> stored = etcdctlGetPrefix("/baremetal/");

      // Every stored key is documented, with the value kind the table gives.
      for (Map.Entry<String, String> kv : stored.entrySet()) {
        List<DocumentedKey> matching =
            table.stream().filter(k -> k.pattern().matcher(kv.getKey()).matches()).toList();
        assertThat(matching).as("the row of %s documenting %s", DOC, kv.getKey()).hasSize(1);
        assertValueKind(matching.get(0), kv.getKey(), kv.getValue(), identity, replica);
      }
      // Every documented key that is not reserved was written.
      for (DocumentedKey key : table) {
        if (!key.reserved()) {
          assertThat(stored.keySet().stream().anyMatch(k -> key.pattern().matcher(k).matches()))
              .as("a key %s (documented in %s) read back by etcdctl", key.template(), DOC)
              .isTrue();
        }
      }
      assertThat(stored.keySet().stream().filter(k -> k.startsWith("/baremetal/events/r1-u07/")))
          .as("event keys: 16 zero-padded digits")
          .isNotEmpty()
          .allMatch(k -> k.matches("/baremetal/events/r1-u07/\\d{16}"));

      // Every field of every example is stored under its name, with its JSON type.
      for (Map.Entry<String, String> e : examples.entrySet()) {
        String key =
            e.getKey().startsWith("/baremetal/events/r1-u07/")
                ? stored.keySet().stream()
                    .filter(k -> k.startsWith("/baremetal/events/r1-u07/"))
                    .reduce((a, b) -> b)
                    .orElseThrow()
                : e.getKey();
        assertThat(stored).as("etcdctl reads the example's key %s", key).containsKey(key);
        JsonNode real = Codec.mapper().readTree(stored.get(key));
        List<String> missing = new ArrayList<>();
        compare(Codec.mapper().readTree(e.getValue()), real, "", missing);
        assertThat(missing)
            .as("fields of the %s example (%s) missing or of another type in etcd", key, DOC)
            .isEmpty();
      }
    }
  }

  /** Checks that a stored value is of the kind the table's value column names. */
  private static void assertValueKind(
      DocumentedKey row, String key, String value, String identity, String replica)
      throws Exception {
    String kind = row.value();
    if (kind.equals("`\"\"`")) {
      assertThat(value).as(key).isEmpty();
    } else if (kind.startsWith("node id")) {
      assertThat(value).as(key).isEqualTo("r1-u07");
    } else if (kind.startsWith("holder identity")) {
      assertThat(value).as(key).isEqualTo(identity);
    } else if (kind.startsWith("instance name")) {
      assertThat(value).as(key).isEqualTo(replica);
    } else if (kind.matches("`[A-Z][A-Za-z]+`")) {
      assertThat(Codec.mapper().readTree(value).isObject())
          .as("%s holds a JSON object (%s)", key, kind)
          .isTrue();
    } else {
      throw new AssertionError(
          "a value kind this test does not know, in " + DOC + ": " + kind + " (" + key + ")");
    }
  }

  /** Adds to {@code missing} each field path of {@code doc} that {@code real} lacks. */
  private static void compare(JsonNode doc, JsonNode real, String at, List<String> missing) {
    if (real == null || real.isMissingNode() || real.getNodeType() != doc.getNodeType()) {
      missing.add(
          (at.isEmpty() ? "/" : at)
              + " ("
              + doc.getNodeType()
              + " documented, "
              + (real == null || real.isMissingNode() ? "absent" : real.getNodeType())
              + " stored)");
      return;
    }
    if (doc.isObject()) {
      for (Map.Entry<String, JsonNode> f : doc.properties()) {
        compare(f.getValue(), real.get(f.getKey()), at + "/" + f.getKey(), missing);
      }
    } else if (doc.isArray() && !doc.isEmpty()) {
      compare(doc.get(0), real.get(0), at + "/0", missing);
    }
  }

  /** The rows of the page's key table (under "## Keys"). */
  static List<DocumentedKey> keyTable(String doc) {
    List<DocumentedKey> rows = new ArrayList<>();
    Pattern row = Pattern.compile("^\\| `(/baremetal/[^`]+)` \\| ([^|]+) \\|");
    for (String line : doc.split("\n")) {
      Matcher m = row.matcher(line);
      if (m.find()) {
        rows.add(new DocumentedKey(m.group(1), m.group(2).trim()));
      }
    }
    return rows;
  }

  /** The page's JSON examples: a line starting with a key in backticks, then a json block. */
  static Map<String, String> jsonExamples(String doc) {
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m =
        Pattern.compile(
                "(?m)^`(/baremetal/[^`]+)`[^\n]*\n(?:[^\n]*\n)??\n?```json\n(.*?)```",
                Pattern.DOTALL)
            .matcher(doc);
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    return out;
  }

  private static String example(Map<String, String> examples, String key) {
    assertThat(examples).as("%s has an example of %s", DOC, key).containsKey(key);
    return examples.get(key);
  }

  /**
   * Reads a documented example into the model without keeping unknown fields (the model's records
   * keep them, so that a newer bamel's fields survive): a documented name the model does not have
   * fails here.
   */
  private static <T> T strict(String json, Class<T> type) throws Exception {
    ObjectMapper mapper =
        Codec.mapper()
            .copy()
            .setAnnotationIntrospector(
                new JacksonAnnotationIntrospector() {
                  @Override
                  public Boolean hasAnySetter(Annotated a) {
                    return Boolean.FALSE;
                  }
                })
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    return mapper.readValue(json, type);
  }

  /** Every key and value under {@code prefix}, as the real etcdctl reads them. */
  private static Map<String, String> etcdctlGetPrefix(String prefix) throws Exception {
    Map<String, String> kvs = new LinkedHashMap<>();
    for (Etcdctl.Kv kv : Etcdctl.get(ETCD.cluster(), "--prefix", prefix)) {
      kvs.put(kv.key(), kv.value());
    }
    return kvs;
  }
}
