package io.bamel.server.modules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
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

  /**
   * A pom whose maven-dependency-plugin has one {@code execution}, checked as {@code module} (the
   * parent or another), and the problems it must report, in order; {@code name} says the case.
   */
  record Check(
      String name, String module, boolean parent, String execution, List<String> problems) {

    static Check parent(String name, String execution, String... problems) {
      return new Check(name, "pom.xml", true, execution, List.of(problems));
    }

    static Check module(String name, String module, String execution, String... problems) {
      return new Check(name, module, false, execution, List.of(problems));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Check> checks() {
    return Stream.of(
        Check.parent(
            "a parent that does not fail or leaves libraries out is reported",
            """
                    <execution>
                      <id>module-graph</id>
                      <goals><goal>analyze-only</goal></goals>
                      <configuration>
                        <failOnWarning>false</failOnWarning>
                        <ignoredDependencies><ignoredDependency>com.*</ignoredDependency></ignoredDependencies>
                      </configuration>
                    </execution>
                    """,
            "pom.xml: execution module-graph does not fail on a warning",
            "pom.xml: ignoredDependencies loosens the dependency analysis"),
        Check.parent(
            "a parent without the analysis is reported",
            "<execution><id>copy</id></execution>",
            "pom.xml: no maven-dependency-plugin execution module-graph"),
        Check.module(
            "a module without the analysis runs the parent's",
            "power-spi",
            "<execution><id>copy</id></execution>"),
        Check.module(
            "an exemption needs its reason beside it",
            "node-controller",
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
                    """,
            "node-controller: ignoreNonCompile loosens the dependency analysis",
            "node-controller: org.example:lib is exempted without a reason"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("checks")
  void whatLoosensTheAnalysisIsReported(Check check) throws Exception {
    assertThat(
            DependencyAnalysisRules.problems(
                check.module(), project(check.execution()), check.parent()))
        .containsExactlyElementsOf(check.problems());
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
