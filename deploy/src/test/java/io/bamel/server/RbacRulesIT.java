package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.bamel.inventory.cluster.Cluster;
import io.bamel.inventory.cluster.EvictionResult;
import io.bamel.inventory.cluster.NodeNotice;
import io.bamel.inventory.cluster.PodRef;
import io.bamel.kube.Fabric8Cluster;
import io.bamel.kube.testing.KubeApiServer;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The ClusterRole of {@code deploy/kubernetes/base/rbac.yaml} grants exactly what bamel's
 * Kubernetes code asks for: every operation of the {@link Cluster} port, run through the real
 * {@link Fabric8Cluster} against the fabric8 mock API server, and every request the server received
 * turned into the (API group, resource[/subresource], verb) that RBAC checks. No request lacks a
 * rule, and no rule is unused.
 */
class RbacRulesIT {

  /** One RBAC permission: API group ({@code ""} for the core group), resource, verb. */
  record Access(String group, String resource, String verb) implements Comparable<Access> {
    @Override
    public int compareTo(Access o) {
      return toString().compareTo(o.toString());
    }

    @Override
    public String toString() {
      return (group.isEmpty() ? "core" : group) + " " + resource + " " + verb;
    }
  }

  /**
   * The RBAC check a request of the API server needs: {@code GET} of one object is get, of a
   * collection list, with {@code watch=true} watch; {@code POST} create; {@code PUT} update; {@code
   * PATCH} patch; {@code DELETE} of one object delete, of a collection deletecollection.
   */
  static Access access(String method, String pathAndQuery) {
    URI uri = URI.create(pathAndQuery);
    List<String> segments = new ArrayList<>(Arrays.asList(uri.getPath().substring(1).split("/")));
    String group;
    if (segments.get(0).equals("api")) {
      group = "";
      segments = segments.subList(2, segments.size());
    } else if (segments.get(0).equals("apis")) {
      group = segments.get(1);
      segments = segments.subList(3, segments.size());
    } else {
      throw new AssertionError("not a resource request: " + pathAndQuery);
    }
    if (segments.size() >= 3 && segments.get(0).equals("namespaces")) {
      segments = segments.subList(2, segments.size());
    }
    String resource = segments.get(0) + (segments.size() > 2 ? "/" + segments.get(2) : "");
    boolean one = segments.size() > 1;
    String query = uri.getQuery() == null ? "" : uri.getQuery();
    boolean watch = Arrays.asList(query.split("&")).contains("watch=true");
    String verb =
        switch (method) {
          case "GET" -> watch ? "watch" : one ? "get" : "list";
          case "POST" -> "create";
          case "PUT" -> "update";
          case "PATCH" -> "patch";
          case "DELETE" -> one ? "delete" : "deletecollection";
          default -> throw new AssertionError("method " + method + " of " + pathAndQuery);
        };
    return new Access(group, resource, verb);
  }

  /** The ClusterRole's rules expanded to single permissions. */
  static Set<Access> granted(Path rbacYaml) throws Exception {
    Set<Access> granted = new TreeSet<>();
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    int roles = 0;
    try (var docs = yaml.readerFor(JsonNode.class).<JsonNode>readValues(rbacYaml.toFile())) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (!doc.path("kind").asText().equals("ClusterRole")
            && !doc.path("kind").asText().equals("Role")) {
          continue;
        }
        roles++;
        for (JsonNode rule : doc.path("rules")) {
          for (JsonNode group : rule.path("apiGroups")) {
            for (JsonNode resource : rule.path("resources")) {
              for (JsonNode verb : rule.path("verbs")) {
                assertThat(verb.asText()).as("no wildcard verb").isNotEqualTo("*");
                assertThat(resource.asText()).as("no wildcard resource").isNotEqualTo("*");
                granted.add(new Access(group.asText(), resource.asText(), verb.asText()));
              }
            }
          }
        }
      }
    }
    assertThat(roles).as("roles in " + rbacYaml).isEqualTo(1);
    return granted;
  }

  @Test
  void mapsRequestsToTheVerbsRbacChecks() {
    assertThat(access("GET", "/api/v1/nodes/n1")).isEqualTo(new Access("", "nodes", "get"));
    assertThat(access("GET", "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1"))
        .isEqualTo(new Access("", "pods", "list"));
    assertThat(access("GET", "/api/v1/namespaces/a/pods?resourceVersion=7&watch=true"))
        .isEqualTo(new Access("", "pods", "watch"));
    assertThat(access("POST", "/api/v1/namespaces/a/pods/p/eviction"))
        .isEqualTo(new Access("", "pods/eviction", "create"));
    assertThat(access("PATCH", "/apis/events.k8s.io/v1/namespaces/default/events/e"))
        .isEqualTo(new Access("events.k8s.io", "events", "patch"));
    assertThat(access("DELETE", "/apis/policy/v1/namespaces/a/poddisruptionbudgets"))
        .isEqualTo(new Access("policy", "poddisruptionbudgets", "deletecollection"));
  }

  @Test
  void theClusterRoleGrantsExactlyWhatTheCodeUses() throws Exception {
    Set<Access> used = new TreeSet<>();
    try (KubeApiServer api = KubeApiServer.start();
        KubernetesClient admin = api.client()) {
      admin
          .nodes()
          .resource(new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build())
          .create();
      for (String pod : List.of("p1", "p2")) {
        admin
            .pods()
            .inNamespace("apps")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName(pod)
                    .withNamespace("apps")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("n1")
                    .endSpec()
                    .build())
            .create();
      }
      int setUp = api.requests().size();

      // Every operation of the port, each through the code path that reaches the API server.
      Map<String, Consumer<Cluster>> operations = new LinkedHashMap<>();
      operations.put("enabled", c -> assertThat(c.enabled()).isTrue());
      // the informers' list and watch of nodes and pods
      operations.put("synced", c -> await().atMost(Duration.ofSeconds(30)).until(c::synced));
      operations.put("onPendingPod", c -> c.onPendingPod(pod -> {}));
      operations.put("reachable", c -> assertThat(c.reachable()).isTrue());
      operations.put("nodes", c -> assertThat(c.nodes()).hasSize(1));
      operations.put("node", c -> assertThat(c.node("n1")).isPresent());
      operations.put("pods", c -> assertThat(c.pods()).hasSize(2));
      operations.put("podsOn", c -> assertThat(c.podsOn("n1")).hasSize(2));
      // a drain's last check: the node's pods listed by field selector from the API server
      operations.put("serverPodsOn", c -> assertThat(c.serverPodsOn("n1")).hasSize(2));
      operations.put(
          "podSummary", c -> assertThat(c.podSummary().byNode().get("n1").pods()).isEqualTo(2));
      operations.put("cordon", c -> assertThat(c.cordon("n1")).isTrue());
      operations.put("uncordon", c -> assertThat(c.uncordon("n1")).isTrue());
      operations.put(
          "label", c -> assertThat(c.label("n1", Map.of("bamel.io/pool", "a"))).isTrue());
      operations.put(
          "evict",
          c ->
              assertThat(c.evict(new PodRef("apps", "p1")).outcome())
                  .isEqualTo(EvictionResult.Status.EVICTED));
      operations.put(
          "notice",
          c -> {
            c.notice(new NodeNotice("n1", false, "Testing", "Test", "the RBAC test"));
            assertThat(api.eventBodies()).hasSize(1);
          });
      operations.put("close", Cluster::close);
      Set<String> portOperations =
          Arrays.stream(Cluster.class.getMethods())
              .filter(m -> !Modifier.isStatic(m.getModifiers()))
              .map(Method::getName)
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(operations.keySet())
          .as("an operation of the Cluster port that this test does not run: add it here")
          .containsExactlyInAnyOrderElementsOf(portOperations);

      Fabric8Cluster cluster = new Fabric8Cluster(api.client());
      operations.values().forEach(operation -> operation.accept(cluster));

      List<String> requests = api.requests().subList(setUp, api.requests().size());
      requests.forEach(
          r -> used.add(access(r.substring(0, r.indexOf(' ')), r.substring(r.indexOf(' ') + 1))));
      System.out.println("RBAC: requests of the code: " + requests);
    }
    Set<Access> granted = granted(Path.of("kubernetes/base/rbac.yaml"));
    assertThat(used).as("permissions the code uses").isNotEmpty();
    Set<Access> missing = new TreeSet<>(used);
    missing.removeAll(granted);
    assertThat(missing).as("requests the ClusterRole does not allow").isEmpty();
    Set<Access> unused = new TreeSet<>(granted);
    unused.removeAll(used);
    assertThat(unused).as("rules nothing uses").isEmpty();
  }
}
