package io.bamel.server.modules;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.w3c.dom.Element;

/**
 * The build's modules and their declared dependencies on each other, read from the poms: the
 * parent's {@code <modules>} and each module's {@code <project><dependencies>} on group {@code
 * io.bamel} (a test-jar counts as its module).
 */
final class ReactorPoms {

  private static final String GROUP = "io.bamel";

  private final Set<String> modules;
  private final List<ModuleRules.Arrow> arrows;

  private ReactorPoms(Set<String> modules, List<ModuleRules.Arrow> arrows) {
    this.modules = modules;
    this.arrows = arrows;
  }

  /** Reads the parent pom in {@code root} and every module's pom it names. */
  static ReactorPoms read(Path root) throws IOException {
    Set<String> modules = new LinkedHashSet<>();
    for (Element module :
        PomXml.children(
            PomXml.child(PomXml.document(root.resolve("pom.xml")), "modules"), "module")) {
      modules.add(module.getTextContent().trim());
    }
    List<ModuleRules.Arrow> arrows = new ArrayList<>();
    for (String module : modules) {
      Element project = PomXml.document(root.resolve(module).resolve("pom.xml"));
      for (Element dependency :
          PomXml.children(PomXml.child(project, "dependencies"), "dependency")) {
        if (GROUP.equals(text(dependency, "groupId"))) {
          arrows.add(
              new ModuleRules.Arrow(
                  module,
                  text(dependency, "artifactId"),
                  "test".equals(text(dependency, "scope"))));
        }
      }
    }
    return new ReactorPoms(modules, arrows);
  }

  Set<String> modules() {
    return modules;
  }

  List<ModuleRules.Arrow> arrows() {
    return arrows;
  }

  private static String text(Element parent, String name) {
    Element element = PomXml.child(parent, name);
    return element == null ? null : element.getTextContent().trim();
  }
}
