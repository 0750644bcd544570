package io.bamel.server.modules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * The build's dependency analysis stays strict in every pom (docs/architecture.md, "How the build
 * checks the graph"): the parent fails on a warning, nothing switches a part of it off, and every
 * jar exempted from it says why.
 */
class DependencyAnalysisTest {

  private static final Path ROOT = Path.of("..");

  @Test
  void everyPomKeepsTheAnalysisStrict() throws Exception {
    Element parent = PomXml.document(ROOT.resolve("pom.xml"));
    assertThat(DependencyAnalysisRules.problems("pom.xml", parent, true)).isEmpty();

    ReactorPoms poms = ReactorPoms.read(ROOT);
    assertThat(poms.modules()).as("the parent pom's modules").contains("deploy", "inventory-core");
    for (String module : poms.modules()) {
      Element pom = PomXml.document(ROOT.resolve(module).resolve("pom.xml"));
      assertThat(DependencyAnalysisRules.problems(module, pom, false)).as(module).isEmpty();
    }
  }

  @Test
  void aParentThatDoesNotFailOrLeavesLibrariesOutIsReported() throws Exception {
    Element pom =
        project(
            """
            <execution>
              <id>module-graph</id>
              <goals><goal>analyze-only</goal></goals>
              <configuration>
                <failOnWarning>false</failOnWarning>
                <ignoredDependencies><ignoredDependency>com.*</ignoredDependency></ignoredDependencies>
              </configuration>
            </execution>
            """);

    assertThat(DependencyAnalysisRules.problems("pom.xml", pom, true))
        .containsExactly(
            "pom.xml: execution module-graph does not fail on a warning",
            "pom.xml: ignoredDependencies loosens the dependency analysis");
  }

  @Test
  void aParentWithoutTheAnalysisIsReported() throws Exception {
    Element pom = project("<execution><id>copy</id></execution>");

    assertThat(DependencyAnalysisRules.problems("pom.xml", pom, true))
        .containsExactly("pom.xml: no maven-dependency-plugin execution module-graph");
    assertThat(DependencyAnalysisRules.problems("power-spi", pom, false)).isEmpty();
  }

  @Test
  void anExemptionNeedsItsReasonBesideIt() throws Exception {
    Element pom =
        project(
            """
            <execution>
              <id>module-graph</id>
              <configuration>
                <ignoredUnusedDeclaredDependencies combine.children="append">
                  <ignoredUnusedDeclaredDependency>org.example:lib</ignoredUnusedDeclaredDependency>
                  <!-- found through ServiceLoader at run time -->
                  <ignoredUnusedDeclaredDependency>io.bamel:power-drivers</ignoredUnusedDeclaredDependency>
                  <ignoredUnusedDeclaredDependency>org.example:driver-extras</ignoredUnusedDeclaredDependency>
                </ignoredUnusedDeclaredDependencies>
                <ignoreNonCompile>true</ignoreNonCompile>
              </configuration>
            </execution>
            """);

    assertThat(DependencyAnalysisRules.problems("node-controller", pom, false))
        .containsExactlyInAnyOrder(
            "node-controller: ignoreNonCompile loosens the dependency analysis",
            "node-controller: org.example:lib is exempted without a reason");
  }

  /** A pom whose maven-dependency-plugin has the given execution. */
  private static Element project(String execution) throws Exception {
    String pom =
        "<project><build><plugins><plugin>"
            + "<artifactId>maven-dependency-plugin</artifactId><executions>"
            + execution
            + "</executions></plugin></plugins></build></project>";
    return PomXml.parse(pom);
  }
}
