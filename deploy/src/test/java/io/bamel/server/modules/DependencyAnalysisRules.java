package io.bamel.server.modules;

import static io.bamel.server.modules.PomXml.child;
import static io.bamel.server.modules.PomXml.children;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Comment;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What keeps the build's dependency analysis (maven-dependency-plugin {@code analyze-only},
 * execution {@code module-graph}) strict, read from a pom: the parent fails the build on a warning,
 * and no pom turns a part of the analysis off or leaves a library out of it wholesale. A jar
 * exempted as unused (run-time only) or as test-only in compile scope carries its reason: a comment
 * right before its entry, or before the run of entries it belongs to.
 *
 * <p>Pure: {@link #problems} reads the pom element it is given, nothing else.
 */
final class DependencyAnalysisRules {

  static final String EXECUTION = "module-graph";

  /** Settings that would hide a kind of finding, or all of them. */
  private static final Set<String> LOOSENING =
      Set.of(
          "ignoredDependencies",
          "ignoredUsedUndeclaredDependencies",
          "ignoreNonCompile",
          "ignoreAllNonTestScoped",
          "ignoreUnusedRuntime",
          "ignoredPackagings",
          "excludedClasses",
          "skip");

  /** Exemptions of one jar each, which need a reason beside them. */
  private static final Set<String> EXEMPTIONS =
      Set.of("ignoredUnusedDeclaredDependency", "ignoredNonTestScopedDependency");

  private DependencyAnalysisRules() {}

  /**
   * What is wrong with the analysis settings of the pom {@code project} (named {@code name} in the
   * messages); {@code parent} says whether it is the parent pom, which must run the analysis and
   * fail on a warning. Empty when the pom keeps the analysis strict.
   */
  static List<String> problems(String name, Element project, boolean parent) {
    List<String> found = new ArrayList<>();
    Element execution = execution(project);
    if (execution == null) {
      if (parent) {
        found.add(name + ": no maven-dependency-plugin execution " + EXECUTION);
      }
      return found;
    }
    Element configuration = child(execution, "configuration");
    if (parent) {
      if (!text(child(execution, "goals")).contains("analyze-only")) {
        found.add(name + ": execution " + EXECUTION + " does not run analyze-only");
      }
      if (configuration == null || !"true".equals(text(child(configuration, "failOnWarning")))) {
        found.add(name + ": execution " + EXECUTION + " does not fail on a warning");
      }
    }
    if (configuration == null) {
      return found;
    }
    for (Node node = configuration.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element setting && LOOSENING.contains(setting.getTagName())) {
        found.add(name + ": " + setting.getTagName() + " loosens the dependency analysis");
      }
    }
    for (String exemption : EXEMPTIONS) {
      NodeList entries = configuration.getElementsByTagName(exemption);
      for (int i = 0; i < entries.getLength(); i++) {
        Node entry = entries.item(i);
        Node before = previousNonBlank(entry);
        while (before instanceof Element sibling && sibling.getTagName().equals(exemption)) {
          before = previousNonBlank(before); // one reason may stand before a run of entries
        }
        if (!(before instanceof Comment)) {
          found.add(name + ": " + entry.getTextContent().trim() + " is exempted without a reason");
        }
      }
    }
    return found;
  }

  /** The maven-dependency-plugin execution {@value #EXECUTION} in the pom's build, or null. */
  private static Element execution(Element project) {
    for (Element plugin : children(child(child(project, "build"), "plugins"), "plugin")) {
      if (!"maven-dependency-plugin".equals(text(child(plugin, "artifactId")))) {
        continue;
      }
      for (Element execution : children(child(plugin, "executions"), "execution")) {
        if (EXECUTION.equals(text(child(execution, "id")))) {
          return execution;
        }
      }
    }
    return null;
  }

  private static Node previousNonBlank(Node node) {
    Node previous = node.getPreviousSibling();
    while (previous != null
        && previous.getNodeType() == Node.TEXT_NODE
        && previous.getTextContent().isBlank()) {
      previous = previous.getPreviousSibling();
    }
    return previous;
  }

  private static String text(Element element) {
    return element == null ? "" : element.getTextContent().trim();
  }
}
