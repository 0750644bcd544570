package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.bamel.server.config.ConfigLoader;
import io.bamel.server.config.SecurityWarnings;
import io.bamel.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kubectl kustomize} renders every shipped variant offline, and what it renders is what the
 * install needs: the namespace, two replicas with their probes (over HTTPS), least-privilege RBAC,
 * no Secret (created out of band, never overwritten by an apply), environment variables bamel
 * accepts, the API's TLS certificate mounted from its Secret, and a configuration bamel loads that
 * listens on every interface only with TLS.
 */
class KustomizeIT {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String NAMESPACE = "bamel-system";

  private static Path kubectl() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir, "kubectl");
      if (!dir.isEmpty() && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  private static List<JsonNode> render(String dir) throws Exception {
    Path kubectl = kubectl();
    assumeTrue(kubectl != null, "kubectl is not installed: skipping the kustomize rendering check");
    Process p = new ProcessBuilder(kubectl.toString(), "kustomize", dir).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(err).isZero();
    List<JsonNode> objects = new ArrayList<>();
    try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(out)) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc != null && !doc.isNull() && !doc.isEmpty()) {
          objects.add(doc);
        }
      }
    }
    return objects;
  }

  private static List<JsonNode> ofKind(List<JsonNode> objects, String kind) {
    return objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
  }

  private static JsonNode one(List<JsonNode> objects, String kind) {
    List<JsonNode> found = ofKind(objects, kind);
    assertThat(found).as(kind).hasSize(1);
    return found.get(0);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kubernetes",
        "kubernetes/overlays/external-etcd-tls",
        "kubernetes/overlays/service-monitor"
      })
  void renders(String dir, @TempDir Path tmp) throws Exception {
    List<JsonNode> objects = render(dir);

    JsonNode namespace = one(objects, "Namespace");
    assertThat(namespace.path("metadata").path("name").asText()).isEqualTo(NAMESPACE);
    for (JsonNode o : objects) {
      String kind = o.path("kind").asText();
      if (!Set.of("Namespace", "ClusterRole", "ClusterRoleBinding").contains(kind)) {
        assertThat(o.path("metadata").path("namespace").asText()).as(kind).isEqualTo(NAMESPACE);
      }
    }

    JsonNode deployment = one(objects, "Deployment");
    JsonNode spec = deployment.path("spec");
    assertThat(spec.path("replicas").asInt()).isEqualTo(2);
    JsonNode pod = spec.path("template").path("spec");
    assertThat(pod.path("serviceAccountName").asText()).isEqualTo("bamel");
    JsonNode container = pod.path("containers").get(0);
    assertThat(container.path("livenessProbe").path("httpGet").path("path").asText())
        .isEqualTo("/healthz");
    assertThat(container.path("readinessProbe").path("httpGet").path("path").asText())
        .isEqualTo("/readyz");
    for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
      JsonNode get = container.path(probe).path("httpGet");
      assertThat(get.path("port").asText()).as(probe).isEqualTo("https");
      assertThat(get.path("scheme").asText()).as(probe).isEqualTo("HTTPS");
    }

    // Every BAMEL_ variable of the container is a setting bamel accepts.
    Map<String, String> env = new HashMap<>();
    for (JsonNode e : container.path("env")) {
      env.put(
          e.path("name").asText(),
          e.has("value") ? e.path("value").asText() : "value-from-the-pod");
    }
    assertThat(env.keySet())
        .allMatch(
            name ->
                ConfigLoader.environmentNames().containsKey(name)
                    || ConfigLoader.NOT_SETTINGS.contains(name),
            "a bamel setting");

    JsonNode role = one(objects, "ClusterRole");
    Map<String, Set<String>> verbs = new HashMap<>();
    for (JsonNode rule : role.path("rules")) {
      for (JsonNode resource : rule.path("resources")) {
        Set<String> set = verbs.computeIfAbsent(resource.asText(), r -> new TreeSet<>());
        rule.path("verbs").forEach(v -> set.add(v.asText()));
      }
    }
    assertThat(verbs)
        .isEqualTo(
            Map.of(
                "nodes", Set.of("get", "list", "watch", "patch"),
                "pods", Set.of("list", "watch"),
                "pods/eviction", Set.of("create"),
                "poddisruptionbudgets", Set.of("list", "watch")));
    JsonNode binding = one(objects, "ClusterRoleBinding");
    assertThat(binding.path("subjects").get(0).path("name").asText()).isEqualTo("bamel");
    assertThat(binding.path("subjects").get(0).path("namespace").asText()).isEqualTo(NAMESPACE);
    one(objects, "ServiceAccount");
    one(objects, "Service");
    one(objects, "PodDisruptionBudget");

    // No Secret is rendered, so an apply never replaces the real ones (and none is empty).
    for (JsonNode secret : ofKind(objects, "Secret")) {
      for (String field : List.of("data", "stringData")) {
        secret.path(field).forEach(v -> assertThat(v.asText()).as(secret.toString()).isNotBlank());
      }
    }
    assertThat(ofKind(objects, "Secret")).isEmpty();

    // The rendered configuration loads (with the pod's environment) as bamel would load it.
    String config = one(objects, "ConfigMap").path("data").path("config.yaml").asText();
    ServerConfig loaded =
        ConfigLoader.load(Files.writeString(tmp.resolve("config.yaml"), config), env, Map.of());
    assertThat(loaded.embeddedEtcd()).isFalse();
    assertThat(loaded.auth().tokensFile()).isEqualTo("/etc/bamel/tokens/tokens");
    assertThat(loaded.instance()).isEqualTo("value-from-the-pod");

    // Every interface, so TLS, with the certificate and key of the mounted Secret bamel-api-tls.
    assertThat(loaded.http().host()).isEqualTo("0.0.0.0");
    assertThat(loaded.http().tls().certFile()).isEqualTo("/etc/bamel/tls/tls.crt");
    assertThat(loaded.http().tls().keyFile()).isEqualTo("/etc/bamel/tls/tls.key");
    assertThat(SecurityWarnings.of(loaded)).noneMatch(w -> w.startsWith("http.host"));
    String tlsVolume = null;
    for (JsonNode mount : container.path("volumeMounts")) {
      if (mount.path("mountPath").asText().equals("/etc/bamel/tls")) {
        assertThat(mount.has("subPath"))
            .as("a directory mount, so renewals reach the pod")
            .isFalse();
        tlsVolume = mount.path("name").asText();
      }
    }
    assertThat(tlsVolume).as("a volume mounted at /etc/bamel/tls").isNotNull();
    for (JsonNode volume : pod.path("volumes")) {
      if (volume.path("name").asText().equals(tlsVolume)) {
        assertThat(volume.path("secret").path("secretName").asText()).isEqualTo("bamel-api-tls");
      }
    }
    assertThat(
            one(objects, "Service").path("spec").path("ports").get(0).path("targetPort").asText())
        .isEqualTo("https");

    if (dir.endsWith("service-monitor")) {
      JsonNode endpoint = one(objects, "ServiceMonitor").path("spec").path("endpoints").get(0);
      assertThat(endpoint.toString()).contains("bamel-metrics-token");
      assertThat(endpoint.path("scheme").asText()).isEqualTo("https");
      assertThat(endpoint.path("port").asText()).isEqualTo("https");
    }
    if (dir.endsWith("external-etcd-tls")) {
      assertThat(loaded.etcd().caFile()).isEqualTo("/etc/bamel/etcd/ca.crt");
      assertThat(pod.path("volumes").toString()).contains("\"secretName\":\"bamel-etcd-client\"");
      // TLS and etcd auth to etcd, TLS on the API: nothing to warn about.
      assertThat(SecurityWarnings.of(loaded)).isEmpty();
    }
  }
}
