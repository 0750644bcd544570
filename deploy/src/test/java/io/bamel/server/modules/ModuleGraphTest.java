package io.bamel.server.modules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The build's module graph is the one drawn in docs/architecture.md: every module's declared bamel
 * dependencies are arrows of {@link ModuleRules#TABLE}. The parent pom's dependency analysis
 * (maven-dependency-plugin analyze-only, failing on a warning) makes the declared arrows the ones
 * the bytecode uses, so together they check the code's graph.
 */
class ModuleGraphTest {

  private static final Path ROOT = Path.of("..");

  @Test
  void everyDeclaredArrowIsInTheTable() throws Exception {
    ReactorPoms poms = ReactorPoms.read(ROOT);
    assertThat(poms.modules()).as("the parent pom's modules").contains("deploy", "power-drivers");
    assertThat(poms.arrows()).as("the poms' bamel dependencies").isNotEmpty();

    assertThat(ModuleRules.violations(ModuleRules.TABLE, poms.modules(), poms.arrows())).isEmpty();
  }

  @Test
  void anArrowBackUpIsRefused() {
    List<ModuleRules.Arrow> arrows =
        List.of(
            new ModuleRules.Arrow("power-drivers", "outbound-http", false),
            new ModuleRules.Arrow("power-drivers", "inventory-core", false));

    assertThat(
            ModuleRules.violations(
                ModuleRules.TABLE, Set.of("power-drivers", "outbound-http"), arrows))
        .containsExactly(
            "power-drivers -> inventory-core is not an arrow of the module graph"
                + " (docs/architecture.md#modules)");
  }

  @Test
  void theSyncEngineAndNetBoxKnowNoHttpServer() {
    Set<String> modules = Set.of("inventory-sync", "dcim-netbox", "inventory-api");
    List<ModuleRules.Arrow> arrows =
        List.of(
            new ModuleRules.Arrow("inventory-api", "dcim-netbox", false),
            new ModuleRules.Arrow("dcim-netbox", "inventory-sync", false),
            new ModuleRules.Arrow("dcim-netbox", "inventory-api", true),
            new ModuleRules.Arrow("inventory-sync", "inventory-api", false),
            new ModuleRules.Arrow("inventory-sync", "dcim-netbox", false));

    assertThat(ModuleRules.violations(ModuleRules.TABLE, modules, arrows))
        .containsExactly(
            "dcim-netbox -> inventory-api (test scope) is not an arrow of the module graph"
                + " (docs/architecture.md#modules)",
            "inventory-sync -> inventory-api is not an arrow of the module graph"
                + " (docs/architecture.md#modules)",
            "inventory-sync -> dcim-netbox is not an arrow of the module graph"
                + " (docs/architecture.md#modules)");
  }

  @Test
  void nothingMayDependOnDeployOrBench() {
    for (ModuleRules.Rule rule : ModuleRules.TABLE) {
      assertThat(rule.main()).as(rule.module()).doesNotContain("deploy", "bench");
      assertThat(rule.testsAlso()).as(rule.module()).doesNotContain("deploy", "bench");
    }
    List<ModuleRules.Arrow> arrows = List.of(new ModuleRules.Arrow("bench", "deploy", false));
    assertThat(ModuleRules.violations(ModuleRules.TABLE, Set.of("bench", "deploy"), arrows))
        .hasSize(1);
  }

  @Test
  void aTestOnlyArrowIsAllowedInTestScopeAlone() {
    Set<String> modules = Set.of("node-controller", "bmc-simulator");

    assertThat(
            ModuleRules.violations(
                ModuleRules.TABLE,
                modules,
                List.of(new ModuleRules.Arrow("node-controller", "bmc-simulator", true))))
        .isEmpty();
    assertThat(
            ModuleRules.violations(
                ModuleRules.TABLE,
                modules,
                List.of(new ModuleRules.Arrow("node-controller", "bmc-simulator", false))))
        .containsExactly(
            "node-controller -> bmc-simulator is not an arrow of the module graph"
                + " (docs/architecture.md#modules)");
  }

  @Test
  void aModuleMissingFromTheTableIsReportedAndAMissingModuleIsTolerated() {
    assertThat(ModuleRules.violations(ModuleRules.TABLE, Set.of("power-tools"), List.of()))
        .containsExactly("power-tools is not in the module table (ModuleRules.TABLE)");
    // inventory-sync has a row; a build without that module is still a valid graph
    assertThat(ModuleRules.violations(ModuleRules.TABLE, Set.of("inventory-core"), List.of()))
        .isEmpty();
  }
}
