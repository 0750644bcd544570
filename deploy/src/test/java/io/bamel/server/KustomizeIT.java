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
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code kubectl kustomize} renders every shipped variant offline (the base, the overlays, each
 * component alone and all of them together), and what it renders is what the install needs: the
 * namespace, two replicas with their probes (over HTTPS), least-privilege RBAC, no Secret (created
 * out of band, never overwritten by an apply), environment variables bamel accepts, the API's TLS
 * certificate mounted from its Secret, and a configuration bamel loads that listens on every
 * interface only with TLS.
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

  /** The components under kubernetes/components, by directory name. */
  static List<String> components() throws Exception {
    try (Stream<Path> dirs = Files.list(Path.of("kubernetes/components"))) {
      return dirs.map(d -> d.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * What is rendered: the base, the shipped overlays, each component alone and all components
   * together (overlays written to target/kustomize-variants, next to the sources so that their
   * relative paths resolve).
   */
  static Stream<String> variants() throws Exception {
    List<String> variants =
        new ArrayList<>(
            List.of(
                "kubernetes",
                "kubernetes/overlays/external-etcd-tls",
                "kubernetes/overlays/service-monitor",
                "kubernetes/overlays/production"));
    List<String> all = components();
    List<List<String>> sets = new ArrayList<>();
    all.forEach(c -> sets.add(List.of(c)));
    sets.add(all);
    for (List<String> set : sets) {
      String name = set.size() == 1 ? set.get(0) : "all-components";
      Path dir = Files.createDirectories(Path.of("target/kustomize-variants", name));
      StringBuilder k =
          new StringBuilder(
              "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                  + "resources:\n  - ../../../kubernetes/base\ncomponents:\n");
      set.forEach(c -> k.append("  - ../../../kubernetes/components/").append(c).append('\n'));
      Files.writeString(dir.resolve("kustomization.yaml"), k.toString());
      variants.add(dir.toString());
    }
    return variants.stream();
  }

  /** The components a variant's kustomization.yaml names. */
  private static Set<String> componentsOf(String dir) throws Exception {
    JsonNode k = YAML.readTree(Path.of(dir, "kustomization.yaml").toFile());
    Set<String> names = new TreeSet<>();
    k.path("components").forEach(c -> names.add(Path.of(c.asText()).getFileName().toString()));
    return names;
  }

  @ParameterizedTest
  @MethodSource("variants")
  void renders(String dir, @TempDir Path tmp) throws Exception {
    List<JsonNode> objects = render(dir);
    Set<String> components = componentsOf(dir);

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
    // Exactly what the code uses: RbacRulesIT compares the base file with the code's requests.
    assertThat(verbs).containsEntry("pods/eviction", Set.of("create"));
    assertThat(verbs.keySet()).doesNotContain("*", "secrets", "poddisruptionbudgets");
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

    // One replica per node, required; on the dedicated nodes only with that component.
    JsonNode antiAffinity =
        pod.path("affinity")
            .path("podAntiAffinity")
            .path("requiredDuringSchedulingIgnoredDuringExecution");
    assertThat(antiAffinity).hasSize(1);
    assertThat(antiAffinity.get(0).path("topologyKey").asText())
        .isEqualTo("kubernetes.io/hostname");
    assertThat(pod.path("affinity").has("nodeAffinity"))
        .isEqualTo(components.contains("dedicated-nodes"));
    if (components.contains("dedicated-nodes")) {
      assertThat(pod.path("affinity").path("nodeAffinity").toString())
          .contains("\"key\":\"bamel.io/control-plane\"", "\"values\":[\"true\"]");
    }
    // hostNetwork only with the Wake-on-LAN component, and then a namespace that allows it, no
    // capability added, and cluster DNS still used.
    boolean hostNetwork = components.contains("wol-host-network");
    assertThat(pod.path("hostNetwork").asBoolean(false)).isEqualTo(hostNetwork);
    assertThat(container.path("securityContext").path("capabilities").path("drop").toString())
        .isEqualTo("[\"ALL\"]");
    assertThat(container.path("securityContext").path("capabilities").has("add")).isFalse();
    if (hostNetwork) {
      assertThat(pod.path("dnsPolicy").asText()).isEqualTo("ClusterFirstWithHostNet");
      assertThat(
              namespace
                  .path("metadata")
                  .path("labels")
                  .path("pod-security.kubernetes.io/enforce")
                  .asText())
          .isEqualTo("privileged");
    }
    if (components.contains("api-tls-cert-manager")) {
      JsonNode certificate = one(objects, "Certificate");
      assertThat(certificate.path("spec").path("secretName").asText()).isEqualTo("bamel-api-tls");
      assertThat(certificate.path("spec").path("dnsNames").toString())
          .contains("bamel.bamel-system.svc");
    } else {
      assertThat(ofKind(objects, "Certificate")).isEmpty();
    }
    assertThat(ofKind(objects, "ServiceMonitor"))
        .hasSize(components.contains("service-monitor") ? 1 : 0);
    if (components.contains("service-monitor")) {
      JsonNode endpoint = one(objects, "ServiceMonitor").path("spec").path("endpoints").get(0);
      assertThat(endpoint.toString()).contains("bamel-metrics-token");
      assertThat(endpoint.path("scheme").asText()).isEqualTo("https");
      assertThat(endpoint.path("port").asText()).isEqualTo("https");
    }
    if (components.contains("external-etcd")) {
      assertThat(loaded.etcd().caFile()).isEqualTo("/etc/bamel/etcd/ca.crt");
      assertThat(pod.path("volumes").toString()).contains("\"secretName\":\"bamel-etcd-client\"");
      // TLS and etcd auth to etcd, TLS on the API: nothing to warn about.
      assertThat(SecurityWarnings.of(loaded)).isEmpty();
    }
  }
}
