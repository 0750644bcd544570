package io.bamel.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A pod's requests by the scheduler's rule, as a table (cpu in cores, memory in bytes). */
class Fabric8MappingTest {

  record Case(
      String name,
      List<Container> init,
      List<Container> containers,
      Map<String, String> overhead,
      Map<String, String> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Container c(String cpu, String memory) {
    Map<String, Quantity> requests = new HashMap<>();
    if (cpu != null) {
      requests.put("cpu", new Quantity(cpu));
    }
    if (memory != null) {
      requests.put("memory", new Quantity(memory));
    }
    return new ContainerBuilder()
        .withName("c")
        .withNewResources()
        .withRequests(requests)
        .endResources()
        .build();
  }

  static Container sidecar(String cpu, String memory) {
    Container s = c(cpu, memory);
    s.setRestartPolicy("Always");
    return s;
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "containers sum",
            List.of(),
            List.of(c("1", "1Gi"), c("500m", "512Mi")),
            Map.of(),
            Map.of("cpu", "1.5", "memory", "1610612736")),
        new Case(
            "a larger init container wins per resource",
            List.of(c("4", "256Mi")),
            List.of(c("1", "1Gi"), c("1", "1Gi")),
            Map.of(),
            Map.of("cpu", "4", "memory", "2147483648")),
        new Case(
            "the largest init container counts, not their sum",
            List.of(c("2", null), c("3", null)),
            List.of(c("1", null)),
            Map.of(),
            Map.of("cpu", "3")),
        new Case(
            "overhead is added",
            List.of(c("2", null)),
            List.of(c("1", "1Gi")),
            Map.of("cpu", "250m", "memory", "120Mi"),
            Map.of("cpu", "2.25", "memory", "1199570944")),
        new Case(
            "an init-only resource counts",
            List.of(c(null, "2Gi")),
            List.of(c("1", null)),
            Map.of(),
            Map.of("cpu", "1", "memory", "2147483648")),
        new Case(
            "a sidecar adds to the containers and runs beside later init containers",
            List.of(sidecar("1", null), c("2", null)),
            List.of(c("1", null)),
            Map.of(),
            Map.of("cpu", "3")),
        new Case(
            "a sidecar adds to the containers' sum",
            List.of(sidecar("1", null)),
            List.of(c("2", null)),
            Map.of(),
            Map.of("cpu", "3")),
        new Case("no requests", List.of(), List.of(c(null, null)), Map.of(), Map.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void requestsFollowTheScheduler(Case k) {
    Map<String, Quantity> overhead = new HashMap<>();
    k.overhead().forEach((r, q) -> overhead.put(r, new Quantity(q)));
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("p")
            .withNamespace("apps")
            .endMetadata()
            .withNewSpec()
            .withInitContainers(k.init())
            .withContainers(k.containers())
            .withOverhead(overhead.isEmpty() ? null : overhead)
            .endSpec()
            .build();
    Map<String, BigDecimal> got = Fabric8Mapping.pod(pod).requests();
    assertThat(got.keySet()).isEqualTo(k.expected().keySet());
    k.expected()
        .forEach((r, v) -> assertThat(got.get(r)).as(r).isEqualByComparingTo(new BigDecimal(v)));
  }
}
