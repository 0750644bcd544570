package io.bamel.server.modules;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reading a pom as XML for the module tests: the parse (no DOCTYPE, so no external entity is
 * fetched) and the direct-child look-ups both the graph and the analysis rules walk with.
 */
final class PomXml {

  private PomXml() {}

  /** The {@code <project>} element of the pom at {@code pom}. */
  static Element document(Path pom) throws IOException {
    try (InputStream in = Files.newInputStream(pom)) {
      return parse(in, pom.toString());
    }
  }

  /** The root element of the pom text {@code xml} (a test's fixture). */
  static Element parse(String xml) throws IOException {
    return parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "pom text");
  }

  private static Element parse(InputStream in, String source) throws IOException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return factory.newDocumentBuilder().parse(in).getDocumentElement();
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException(source + ": " + e.getMessage(), e);
    }
  }

  /** The first direct child element named {@code name}, or null (also when {@code parent} is). */
  static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  /** The direct child elements named {@code name}, in order; empty when {@code parent} is null. */
  static List<Element> children(Element parent, String name) {
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
}
