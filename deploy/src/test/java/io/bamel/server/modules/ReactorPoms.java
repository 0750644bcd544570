package io.bamel.server.modules;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

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
    for (Element module : children(child(document(root.resolve("pom.xml")), "modules"), "module")) {
      modules.add(module.getTextContent().trim());
    }
    List<ModuleRules.Arrow> arrows = new ArrayList<>();
    for (String module : modules) {
      Element project = document(root.resolve(module).resolve("pom.xml"));
      for (Element dependency : children(child(project, "dependencies"), "dependency")) {
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

  /** The {@code <project>} element of the pom at {@code pom}. */
  static Element document(Path pom) throws IOException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      Document document = factory.newDocumentBuilder().parse(pom.toFile());
      return document.getDocumentElement();
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException(pom + ": " + e.getMessage(), e);
    }
  }

  /** The direct child element named {@code name}, or null. */
  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    if (parent == null) {
      return found;
    }
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && name.equals(element.getTagName())) {
        found.add(element);
      }
    }
    return found;
  }

  private static String text(Element parent, String name) {
    Element element = child(parent, name);
    return element == null ? null : element.getTextContent().trim();
  }
}
