package io.bamel.power.redfish.dmtf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One of DMTF's published mockups read straight from its files ({@link DmtfFiles}): every resource
 * by its URI ({@code /redfish/v1/Systems/437XR1138R2} is {@code
 * mockups/<name>/Systems/437XR1138R2/index.json}). The test side's oracle: nothing of the driver is
 * used to read it.
 */
public final class Mockup {

  /** The service root's URI. */
  public static final String ROOT = "/redfish/v1";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INDEX = "index.json";

  private final String name;
  private final Map<String, JsonNode> resources;

  private Mockup(String name, Map<String, JsonNode> resources) {
    this.name = name;
    this.resources = resources;
  }

  private static final Map<String, Mockup> READ = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The mockup {@code name} (one of {@link DmtfFiles#MOCKUPS}), read once per test JVM. Its nodes
   * must not be changed (copy them first).
   */
  public static Mockup of(String name) {
    return READ.computeIfAbsent(name, Mockup::read);
  }

  private static Mockup read(String name) {
    String prefix = "mockups/" + name + "/";
    Map<String, JsonNode> resources = new LinkedHashMap<>();
    for (String file : DmtfFiles.list()) {
      if (!file.startsWith(prefix) || !file.endsWith(INDEX)) {
        continue;
      }
      String folder = file.substring(prefix.length(), file.length() - INDEX.length());
      String uri = folder.isEmpty() ? ROOT : ROOT + "/" + folder.substring(0, folder.length() - 1);
      byte[] bytes = DmtfFiles.read(file).orElseThrow();
      try {
        resources.put(uri, JSON.readTree(bytes));
      } catch (IOException e) {
        throw new UncheckedIOException(file, e);
      }
    }
    if (resources.isEmpty()) {
      throw new IllegalArgumentException("no DMTF mockup named " + name);
    }
    return new Mockup(name, resources);
  }

  /** The mockup's folder name. */
  public String name() {
    return name;
  }

  /** Every resource by its URI (without a trailing slash), as published. */
  public Map<String, JsonNode> resources() {
    return resources;
  }

  /** The resource at {@code uri} (a trailing slash or {@code #fragment} ignored), or missing. */
  public JsonNode get(String uri) {
    String path = uri;
    int hash = path.indexOf('#');
    if (hash >= 0) {
      path = path.substring(0, hash);
    }
    while (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    JsonNode node = resources.get(path);
    return node == null ? MissingNode.getInstance() : node;
  }

  /** The resource a link object ({@code {"@odata.id": ...}}) points to, or missing. */
  public JsonNode follow(JsonNode link) {
    String uri = link.path("@odata.id").asText("");
    return uri.isEmpty() ? MissingNode.getInstance() : get(uri);
  }

  @Override
  public String toString() {
    return name;
  }
}
