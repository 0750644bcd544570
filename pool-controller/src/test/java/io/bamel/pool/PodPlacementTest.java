package io.bamel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.cluster.KubePod;
import io.bamel.inventory.cluster.NodeRequirement;
import io.bamel.inventory.cluster.PodRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where a pod may land by the pool label, as a table: node selector AND required affinity; terms
 * ORed, expressions ANDed. {@code "-"} stands for a node without a pool label.
 */
class PodPlacementTest {

  private static final List<String> LABELS = Arrays.asList("a", "b", "c", "gpu", null);

  record Case(String name, PodPlacement placement, Set<String> allowed) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeRequirement pool(String op, String... values) {
    return NodeRequirement.pool(op, values);
  }

  private static NodeRequirement other(String key, String op, String... values) {
    return new NodeRequirement(key, op, List.of(values));
  }

  private static Case c(String name, PodPlacement p, String... allowed) {
    return new Case(name, p, Set.of(allowed));
  }

  static Stream<Case> cases() {
    return Stream.of(
        c("no constraint: anywhere", PodPlacement.ANYWHERE, "a", "b", "c", "gpu", "-"),
        c("node selector alone", new PodPlacement("a", null), "a"),
        c(
            "affinity In alone",
            new PodPlacement(null, List.of(List.of(pool("In", "a", "b")))),
            "a",
            "b"),
        c(
            "node selector AND affinity: the intersection",
            new PodPlacement("a", List.of(List.of(pool("In", "a", "b")))),
            "a"),
        c(
            "node selector and affinity that do not meet: nowhere",
            new PodPlacement("c", List.of(List.of(pool("In", "a", "b"))))),
        c(
            "terms are ORed",
            new PodPlacement(null, List.of(List.of(pool("In", "a")), List.of(pool("In", "b")))),
            "a",
            "b"),
        c(
            "expressions within a term are ANDed",
            new PodPlacement(null, List.of(List.of(pool("In", "a", "b"), pool("NotIn", "b")))),
            "a"),
        c(
            "NotIn also allows nodes without the label",
            new PodPlacement(null, List.of(List.of(pool("NotIn", "gpu")))),
            "a",
            "b",
            "c",
            "-"),
        c(
            "Exists: any pool, not a node without one",
            new PodPlacement(null, List.of(List.of(pool("Exists")))),
            "a",
            "b",
            "c",
            "gpu"),
        c(
            "DoesNotExist: only nodes without a pool",
            new PodPlacement(null, List.of(List.of(pool("DoesNotExist")))),
            "-"),
        c(
            "Exists AND NotIn",
            new PodPlacement(null, List.of(List.of(pool("Exists"), pool("NotIn", "gpu")))),
            "a",
            "b",
            "c"),
        c(
            "a term only on other labels does not restrict the pool",
            new PodPlacement(null, List.of(List.of(other("kubernetes.io/arch", "In", "amd64")))),
            "a",
            "b",
            "c",
            "gpu",
            "-"),
        c(
            "other labels ANDed with a pool expression leave the pool expression",
            new PodPlacement(
                null,
                List.of(List.of(other("kubernetes.io/arch", "In", "amd64"), pool("In", "gpu")))),
            "gpu"),
        c(
            "a pool term ORed with an unrestricted term: anywhere",
            new PodPlacement(
                null,
                List.of(
                    List.of(pool("In", "a")), List.of(other("kubernetes.io/arch", "In", "amd64")))),
            "a",
            "b",
            "c",
            "gpu",
            "-"),
        c(
            "node selector AND an affinity excluding it: nowhere",
            new PodPlacement("a", List.of(List.of(pool("NotIn", "a"))))),
        c(
            "node selector AND ORed terms",
            new PodPlacement("b", List.of(List.of(pool("In", "a")), List.of(pool("Exists")))),
            "b"),
        c("an empty term matches nothing", new PodPlacement(null, List.of(List.of()))),
        c(
            "an unknown operator matches nothing",
            new PodPlacement(null, List.of(List.of(pool("Near", "a"))))),
        c(
            "Gt and Lt compare numbers; pool names that are not match nothing",
            new PodPlacement(null, List.of(List.of(pool("Gt", "1")), List.of(pool("Lt", "9"))))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void allows(Case c) {
    List<String> allowed = new ArrayList<>();
    for (String label : LABELS) {
      if (c.placement().allows(label)) {
        allowed.add(label == null ? "-" : label);
      }
    }
    assertThat(allowed).containsExactlyInAnyOrderElementsOf(c.allowed());
    assertThat(c.placement().needsNoPool()).isEqualTo(c.allowed().contains("-"));
  }

  @Test
  void numericPoolNamesCompareWithGtAndLt() {
    PodPlacement gt = new PodPlacement(null, List.of(List.of(pool("Gt", "10"))));
    assertThat(gt.allows("11")).isTrue();
    assertThat(gt.allows("10")).isFalse();
    assertThat(gt.allows(null)).isFalse();
    PodPlacement lt = new PodPlacement(null, List.of(List.of(pool("Lt", "10"))));
    assertThat(lt.allows("9")).isTrue();
    assertThat(lt.allows("10")).isFalse();
  }

  private static KubePod pod(
      Map<String, String> nodeSelector, List<List<NodeRequirement>> requiredNodeTerms) {
    return KubePod.builder()
        .ref(new PodRef("default", "p"))
        .phase("Pending")
        .scheduled(false)
        .scheduledReason("Unschedulable")
        .nodeSelector(nodeSelector)
        .requiredNodeTerms(requiredNodeTerms)
        .build();
  }

  private static List<String> allowedOf(PodPlacement placement) {
    List<String> allowed = new ArrayList<>();
    for (String label : LABELS) {
      if (placement.allows(label)) {
        allowed.add(label == null ? "-" : label);
      }
    }
    return allowed;
  }

  @Test
  void fromTheClusterPortsPod() {
    assertThat(PodPlacement.of(pod(Map.of(), List.of()))).isEqualTo(PodPlacement.ANYWHERE);
    assertThat(PodPlacement.of(pod(Map.of("bamel.io/pool", "a"), List.of())))
        .isEqualTo(new PodPlacement("a", null));
    assertThat(
            PodPlacement.of(
                pod(
                    Map.of("disk", "ssd"),
                    List.of(
                        List.of(
                            pool("In", "a", "b"),
                            new NodeRequirement("kubernetes.io/arch", "In", List.of("amd64")))))))
        .isEqualTo(
            new PodPlacement(
                null,
                List.of(
                    List.of(pool("In", "a", "b"), other("kubernetes.io/arch", "In", "amd64")))));
    PodPlacement both =
        PodPlacement.of(pod(Map.of("bamel.io/pool", "a"), List.of(List.of(pool("In", "a", "b")))));
    assertThat(allowedOf(both)).as("the node selector must match too").containsExactly("a");
  }

  @Test
  void thePortsTermsAreEvaluatedExactly() {
    PodPlacement andNotIn =
        PodPlacement.of(pod(Map.of(), List.of(List.of(pool("In", "a", "b"), pool("NotIn", "b")))));
    assertThat(allowedOf(andNotIn)).as("In (a, b) AND NotIn (b)").containsExactly("a");

    PodPlacement ored =
        PodPlacement.of(pod(Map.of(), List.of(List.of(pool("In", "a")), List.of(pool("In", "b")))));
    assertThat(allowedOf(ored)).as("In (a) OR In (b)").containsExactlyInAnyOrder("a", "b");

    PodPlacement existsNotGpu =
        PodPlacement.of(pod(Map.of(), List.of(List.of(pool("Exists"), pool("NotIn", "gpu")))));
    assertThat(allowedOf(existsNotGpu)).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(existsNotGpu.needsNoPool()).isFalse();

    PodPlacement onlyFields =
        PodPlacement.of(
            pod(
                Map.of(),
                List.of(List.of(new NodeRequirement("metadata.name", "In", List.of("n1"))))));
    assertThat(allowedOf(onlyFields))
        .as("a term only on node fields does not restrict the pool")
        .containsExactlyInAnyOrder("a", "b", "c", "gpu", "-");
  }
}
