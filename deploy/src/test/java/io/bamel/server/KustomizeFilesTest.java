package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kustomize tree holds together without kubectl (KustomizeIT renders it where kubectl is
 * installed; Debian's kubernetes-client 1.20 bundles a kustomize too old for components): every
 * YAML file parses, every kustomization is a Kustomization or a Component of the right API version,
 * every path it names exists (a directory with a kustomization for resources and components, a
 * Component for components), and every patch of a component targets a resource of the base (by kind
 * and name), so combining components cannot patch nothing.
 */
class KustomizeFilesTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path ROOT = Path.of("kubernetes");

  private static List<JsonNode> documents(Path file) throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    try (var it = YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile())) {
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && !doc.isNull() && !doc.isEmpty()) {
          docs.add(doc);
        }
      }
    }
    return docs;
  }

  private static List<Path> kustomizations() throws Exception {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(f -> f.getFileName().toString().equals("kustomization.yaml")).toList();
    }
  }

  private static JsonNode kustomization(Path dir) throws Exception {
    Path file = dir.resolve("kustomization.yaml");
    assertThat(file).as("a kustomization in " + dir).isRegularFile();
    return documents(file).get(0);
  }

  /** Kind and name of every object the base's resources define. */
  private static Set<String> baseObjects() throws Exception {
    Set<String> objects = new TreeSet<>();
    Path base = ROOT.resolve("base");
    for (JsonNode resource : kustomization(base).path("resources")) {
      for (JsonNode doc : documents(base.resolve(resource.asText()))) {
        objects.add(doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText());
      }
    }
    return objects;
  }

  @Test
  void everyYamlFileParsesAndNamesItsKind() throws Exception {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(ROOT)) {
      files = walk.filter(f -> f.toString().endsWith(".yaml")).toList();
    }
    assertThat(files).hasSizeGreaterThan(15);
    for (Path file : files) {
      List<JsonNode> docs = documents(file);
      assertThat(docs).as(file.toString()).isNotEmpty();
      for (JsonNode doc : docs) {
        assertThat(doc.path("apiVersion").asText()).as("apiVersion in " + file).isNotEmpty();
        assertThat(doc.path("kind").asText()).as("kind in " + file).isNotEmpty();
      }
    }
  }

  @Test
  void everyKustomizationNamesExistingFilesAndComponents() throws Exception {
    List<Path> all = kustomizations();
    int components = 0;
    for (Path file : all) {
      Path dir = file.getParent();
      JsonNode k = documents(file).get(0);
      String kind = k.path("kind").asText();
      assertThat(kind).as(file.toString()).isIn("Kustomization", "Component");
      assertThat(k.path("apiVersion").asText())
          .as(file.toString())
          .isEqualTo(
              kind.equals("Component")
                  ? "kustomize.config.k8s.io/v1alpha1"
                  : "kustomize.config.k8s.io/v1beta1");
      if (kind.equals("Component")) {
        components++;
        assertThat(dir.getParent().getFileName().toString()).isEqualTo("components");
      }
      for (JsonNode resource : k.path("resources")) {
        Path p = dir.resolve(resource.asText()).normalize();
        if (Files.isDirectory(p)) {
          assertThat(kustomization(p).path("kind").asText())
              .as(resource + " in " + file)
              .isEqualTo("Kustomization");
        } else {
          assertThat(p).as(resource + " in " + file).isRegularFile();
          assertThat(p.startsWith(dir)).as(resource + " inside " + dir).isTrue();
        }
      }
      for (JsonNode component : k.path("components")) {
        Path p = dir.resolve(component.asText()).normalize();
        assertThat(p).as(component + " in " + file).isDirectory();
        assertThat(kustomization(p).path("kind").asText())
            .as(component + " in " + file)
            .isEqualTo("Component");
      }
      for (JsonNode patch : k.path("patches")) {
        Path p = dir.resolve(patch.path("path").asText()).normalize();
        assertThat(p).as(patch + " in " + file).isRegularFile();
        assertThat(p.startsWith(dir)).as(patch + " inside " + dir).isTrue();
      }
    }
    assertThat(components).as("components").isGreaterThanOrEqualTo(5);
  }

  @Test
  void everyComponentPatchTargetsAResourceOfTheBase() throws Exception {
    Set<String> base = baseObjects();
    assertThat(base)
        .contains("Deployment/bamel", "ConfigMap/bamel-config", "Namespace/bamel-system");
    List<Path> componentDirs;
    try (Stream<Path> dirs = Files.list(ROOT.resolve("components"))) {
      componentDirs = dirs.sorted().toList();
    }
    for (Path dir : componentDirs) {
      JsonNode k = kustomization(dir);
      Set<String> own = new TreeSet<>();
      for (JsonNode resource : k.path("resources")) {
        for (JsonNode doc : documents(dir.resolve(resource.asText()))) {
          own.add(doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText());
          // Not in the base, so the base's namespace does not reach it: it names its own.
          if (!doc.path("kind").asText().equals("Namespace")) {
            assertThat(doc.path("metadata").path("namespace").asText())
                .as(resource + " in " + dir)
                .isEqualTo("bamel-system");
          }
        }
        assertThat(own)
            .as("what " + dir + " adds is not in the base")
            .doesNotContainAnyElementsOf(base);
      }
      for (JsonNode patch : k.path("patches")) {
        for (JsonNode doc : documents(dir.resolve(patch.path("path").asText()))) {
          String target =
              doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText();
          assertThat(base).as("the target of " + patch + " in " + dir).contains(target);
        }
      }
    }
  }
}
