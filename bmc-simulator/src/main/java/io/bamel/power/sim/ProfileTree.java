package io.bamel.power.sim;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A published tree with one profile's edits applied, built once per profile and shared, unchanged,
 * by every system of that profile: each resource as a node (to overlay state on) and, where no
 * state goes, as bytes ready to answer with. It also knows where the state lives: the system, its
 * reset action and ActionInfo, its chassis, its NICs, the sessions.
 */
final class ProfileTree {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SimVocabulary WIRE = SimVocabulary.WIRE;
  private static final Map<SimProfile, ProfileTree> CACHE = new ConcurrentHashMap<>();

  /** How a resource is answered: as shared bytes, or built with the system's state. */
  enum Kind {
    STATIC,
    ROOT,
    SESSION_SERVICE,
    SESSIONS,
    SYSTEM,
    ACTION_INFO,
    NIC,
    CHASSIS
  }

  /** One resource of the tree. */
  record Resource(
      String path, ObjectNode node, Kind kind, SimOperation operation, PrefixedJson bytes) {}

  private final Map<String, Resource> resources;
  private final String systemPath;
  private final String resetTarget;
  private final String sessionsPath;
  private final ObjectNode sessionTemplate;
  private final List<String> bootTargets;
  private final boolean trailingSlash;
  private final int sharedWattsReadings;

  /** The tree of {@code profile}, built on first use. */
  static ProfileTree of(SimProfile profile) {
    return CACHE.computeIfAbsent(profile, ProfileTree::new);
  }

  private ProfileTree(SimProfile profile) {
    Map<String, ObjectNode> tree = PublishedTree.copy(profile.mockup());
    String root = WIRE.root();
    Map<String, String> places = new LinkedHashMap<>();
    places.put("{root}", root);
    ObjectNode rootNode = tree.get(root);
    String systems = link(rootNode, WIRE.discover().systems());
    String system = link(tree.get(systems), WIRE.discover().firstMember());
    places.put("{system}", system);
    places.put("{chassis}", link(tree.get(system), WIRE.discover().systemChassis()));
    places.put("{manager}", link(tree.get(system), WIRE.discover().systemManager()));

    TreeEditor.apply(profile.edits(), tree, places);
    if (profile.bladeEnclosure()) {
      TreeEditor.apply(TreeEdits.BLADE, tree, places);
    }
    trailingSlash = profile.edits().trailingSlash();
    if (trailingSlash) {
      tree.values().forEach(node -> TreeEditor.mapStrings(node, TreeEditor::withSlash));
    }
    tree.values().forEach(TreeEditor::fixCounts);

    systemPath = places.get("{system}");
    String chassis = places.get("{chassis}");
    ObjectNode systemNode = tree.get(systemPath);
    resetTarget = normal(text(systemNode, WIRE.discover().resetTarget()));
    String actionInfo = normal(text(systemNode, WIRE.discover().resetActionInfo()));
    String nics = normal(link(systemNode, WIRE.discover().ethernetInterfaces()));
    rootNode = tree.get(root);
    sessionsPath = normal(link(rootNode, WIRE.discover().sessions()));
    String sessionService = normal(link(rootNode, WIRE.discover().sessionService()));
    sessionTemplate = takeSessions(tree);
    JsonNode targets = systemNode.at(WIRE.state().bootTargetValues());
    List<String> allowed = new ArrayList<>();
    targets.forEach(t -> allowed.add(t.asText()));
    bootTargets = List.copyOf(allowed);

    int shared = 0;
    Map<String, Resource> built = new HashMap<>();
    for (Map.Entry<String, ObjectNode> e : tree.entrySet()) {
      String path = e.getKey();
      ObjectNode node = e.getValue();
      boolean inChassis = path.equals(chassis) || path.startsWith(chassis + "/");
      Kind kind;
      if (path.equals(root)) {
        kind = Kind.ROOT;
      } else if (path.equals(systemPath)) {
        kind = Kind.SYSTEM;
      } else if (path.equals(actionInfo)) {
        kind = Kind.ACTION_INFO;
      } else if (path.equals(sessionService)) {
        kind = Kind.SESSION_SERVICE;
      } else if (path.equals(sessionsPath)) {
        kind = Kind.SESSIONS;
      } else if (nics != null
          && path.startsWith(nics + "/")
          && WIRE.state().macs().stream().anyMatch(p -> JsonOverlay.has(node, p))) {
        kind = Kind.NIC;
      } else if (inChassis && (path.equals(chassis) || hasWatts(node))) {
        kind = Kind.CHASSIS;
      } else {
        kind = Kind.STATIC;
      }
      if (inChassis
          && WIRE.state().sharedWatts().stream().anyMatch(p -> JsonOverlay.has(node, p))) {
        shared++;
      }
      SimOperation operation = WIRE.operationOf(text(node, JsonPointer.compile("/" + odataType())));
      built.put(
          path,
          new Resource(
              path,
              node,
              kind,
              operation,
              kind == Kind.STATIC ? PrefixedJson.of(bytes(node), root) : null));
    }
    sharedWattsReadings = Math.max(1, shared);
    resources = Collections.unmodifiableMap(built);
  }

  /** The resource at {@code path} (no trailing slash), or {@code null}. */
  Resource resource(String path) {
    return resources.get(path);
  }

  /** Every resource path. */
  Set<String> paths() {
    return resources.keySet();
  }

  /** The ComputerSystem's path. */
  String systemPath() {
    return systemPath;
  }

  /** The reset action's path (no trailing slash). */
  String resetTarget() {
    return resetTarget;
  }

  /** The sessions collection's path (no trailing slash). */
  String sessionsPath() {
    return sessionsPath;
  }

  /** A published session, to answer a login with. */
  ObjectNode sessionTemplate() {
    return sessionTemplate;
  }

  /** The boot targets the system publishes as allowed. */
  List<String> bootTargets() {
    return bootTargets;
  }

  /** How many of the chassis' power supplies share its draw. */
  int sharedWattsReadings() {
    return sharedWattsReadings;
  }

  /** A link as the profile writes it ({@code /} at the end where it says so). */
  String link(String path) {
    return trailingSlash ? TreeEditor.withSlash(path) : path;
  }

  /** The bytes of {@code node}. */
  static byte[] bytes(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Takes the published sessions (and every link to them) out of the tree; returns one to answer
   * logins with.
   */
  private ObjectNode takeSessions(Map<String, ObjectNode> tree) {
    ObjectNode collection = sessionsPath == null ? null : tree.get(sessionsPath);
    ObjectNode template = null;
    if (collection != null && collection.get(WIRE.odata().members()) instanceof ArrayNode members) {
      List<String> published = new ArrayList<>();
      members.forEach(m -> published.add(normal(m.path(WIRE.odata().id()).asText())));
      for (String path : published) {
        ObjectNode session = tree.remove(path);
        template = template == null ? session : template;
        tree.values().forEach(node -> TreeEditor.dropLinks(node, path));
      }
      tree.values().forEach(TreeEditor::fixCounts);
    }
    return template == null ? JSON.createObjectNode() : template;
  }

  private static boolean hasWatts(ObjectNode node) {
    return WIRE.state().watts().stream().anyMatch(p -> JsonOverlay.has(node, p))
        || WIRE.state().sharedWatts().stream().anyMatch(p -> JsonOverlay.has(node, p));
  }

  private static String odataType() {
    return WIRE.odata().type();
  }

  private static String link(JsonNode node, JsonPointer pointer) {
    return node == null ? null : normal(text(node, pointer));
  }

  private static String text(JsonNode node, JsonPointer pointer) {
    JsonNode value = node.at(pointer);
    return value.isTextual() ? value.asText() : null;
  }

  /** A path without its trailing {@code /}. */
  static String normal(String path) {
    return path != null && path.length() > 1 && path.endsWith("/")
        ? path.substring(0, path.length() - 1)
        : path;
  }
}
