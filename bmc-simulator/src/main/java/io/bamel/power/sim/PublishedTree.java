package io.bamel.power.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One of DMTF's published mockups as resources by path ({@code /redfish/v1/Systems/437XR1138R2}),
 * read once from {@code redfish-dmtf}: every {@code index.json} below the mockup's folder,
 * unchanged.
 */
final class PublishedTree {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Map<String, ObjectNode>> CACHE = new ConcurrentHashMap<>();

  private PublishedTree() {}

  /** A fresh deep copy of mockup {@code name}'s resources, in path order, to edit. */
  static Map<String, ObjectNode> copy(String name) {
    Map<String, ObjectNode> copy = new LinkedHashMap<>();
    CACHE.computeIfAbsent(name, PublishedTree::read).forEach((k, v) -> copy.put(k, v.deepCopy()));
    return copy;
  }

  private static Map<String, ObjectNode> read(String name) {
    String folder = "mockups/" + name + "/";
    String index = "index.json";
    String root = SimVocabulary.WIRE.root();
    Map<String, ObjectNode> resources = new LinkedHashMap<>();
    for (String file : DmtfFiles.list()) {
      if (!file.startsWith(folder) || !file.endsWith(index)) {
        continue;
      }
      String relative = file.substring(folder.length(), file.length() - index.length());
      String path = relative.isEmpty() ? root : root + "/" + relative;
      if (path.endsWith("/")) {
        path = path.substring(0, path.length() - 1);
      }
      byte[] bytes = DmtfFiles.read(file).orElseThrow();
      try {
        if (JSON.readTree(bytes) instanceof ObjectNode resource) {
          resources.put(path, resource);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read published resource " + file, e);
      }
    }
    if (!resources.containsKey(root)) {
      throw new IllegalArgumentException("no published tree " + name);
    }
    return Collections.unmodifiableMap(resources);
  }
}
