package io.bamel.power.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * The Redfish resources of one simulated system as it is now: its profile's {@link ProfileTree}
 * (DMTF's published tree with the profile's edits, shared by every system) with this system's state
 * overlaid at the pointers {@link SimVocabulary} names: power state, boot override, ETag, serial
 * number, UUID and MACs, the reset types it accepts, its sessions and its power draw. Every link
 * gets the system's path prefix ({@code /bmc/ID}). Built per request; only the resources that carry
 * state are serialized anew.
 */
final class SimRedfishTree {

  private static final SimVocabulary WIRE = SimVocabulary.WIRE;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final SimulatedSystem system;
  private final ProfileTree tree;
  private final byte[] prefix;
  private final String prefixText;

  SimRedfishTree(SimulatedSystem system, String prefix) {
    this.system = system;
    this.tree = system.tree();
    this.prefixText = prefix;
    this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
  }

  /** A resource to answer and the operation to count ({@code null}: none). */
  record Served(SimOperation operation, byte[] body) {}

  /** The service root's path. */
  String rootPath() {
    return WIRE.root();
  }

  /** The ComputerSystem's path. */
  String systemPath() {
    return tree.systemPath();
  }

  /** The reset action's path. */
  String resetTarget() {
    return tree.resetTarget();
  }

  /** The sessions collection's path. */
  String sessionsPath() {
    return tree.sessionsPath();
  }

  /** The boot targets the system allows. */
  List<String> bootTargets() {
    return tree.bootTargets();
  }

  /** The absolute link (with the system's prefix) to session {@code id}. */
  String sessionLink(String id) {
    return prefixText + tree.link(tree.sessionsPath() + "/" + id);
  }

  /** The resource at {@code path}, as it is now; empty when there is none. */
  Optional<Served> get(String path) {
    ProfileTree.Resource resource = tree.resource(path);
    if (resource == null) {
      if (path.startsWith(tree.sessionsPath() + "/")) {
        String id = path.substring(tree.sessionsPath().length() + 1);
        return system.hasSession(id)
            ? Optional.of(new Served(null, session(id)))
            : Optional.empty();
      }
      return Optional.empty();
    }
    return Optional.of(new Served(resource.operation(), render(resource)));
  }

  /** The protocol version document. */
  byte[] versions() {
    return render(WIRE.versions());
  }

  /** The ComputerSystem with {@code etag} ({@code null}: none) and the power state to report. */
  byte[] computerSystem(String etag, String powerState) {
    ProfileTree.Resource resource = tree.resource(tree.systemPath());
    SimVocabulary.State state = WIRE.state();
    JsonOverlay overlay = new JsonOverlay(resource.node());
    overlay.set(state.powerState(), TextNode.valueOf(powerState), true);
    List<String> boot = system.bootOverride();
    overlay.set(state.bootTarget(), TextNode.valueOf(boot.get(0)), true);
    overlay.set(state.bootEnabled(), TextNode.valueOf(boot.get(1)), true);
    overlay.replace(state.bootMode(), TextNode.valueOf(system.bootMode()));
    overlay.replace(state.serialNumber(), TextNode.valueOf(serialNumber(system.id())));
    overlay.replace(state.uuid(), TextNode.valueOf(SimulatedSystem.systemUuid(system.id())));
    SimProfile profile = system.config().profile();
    ArrayNode inline = NODES.arrayNode();
    system.config().allowableResetTypes().stream()
        .map(t -> profile.inlineResetNames().getOrDefault(t, t))
        .forEach(inline::add);
    overlay.replace(state.resetInline(), inline);
    if (etag != null) {
      overlay.result().put(WIRE.odata().etag(), etag);
    }
    return render(overlay.result());
  }

  /** A session resource for live session {@code id}. */
  byte[] session(String id) {
    ObjectNode session = tree.sessionTemplate().deepCopy();
    session.put(WIRE.odata().id(), tree.link(tree.sessionsPath() + "/" + id));
    session.put(WIRE.odata().resourceId().getMatchingProperty(), id);
    JsonOverlay overlay = new JsonOverlay(session);
    overlay.replace(WIRE.state().sessionUser(), TextNode.valueOf(system.config().username()));
    List<Instant> times = system.sessionTimes(id);
    overlay.replace(WIRE.state().sessionCreated(), dateTime(times.get(0)));
    overlay.replace(WIRE.state().sessionExpires(), dateTime(times.get(1)));
    return render(overlay.result());
  }

  private byte[] render(ProfileTree.Resource resource) {
    SimVocabulary.State state = WIRE.state();
    SimSystemConfig config = system.config();
    JsonOverlay overlay = new JsonOverlay(resource.node());
    switch (resource.kind()) {
      case STATIC -> {
        return resource.bytes().render(prefix);
      }
      case SYSTEM -> {
        return computerSystem(null, WIRE.powerStates().get(system.powerState()));
      }
      case ROOT -> {
        if (!config.sessionService()) {
          state.rootWithoutSessions().forEach(overlay::remove);
        }
      }
      case SESSION_SERVICE -> {
        overlay.replace(state.sessionEnabled(), NODES.booleanNode(config.sessionService()));
        overlay.replace(
            state.sessionTimeout(), LongNode.valueOf(config.sessionTimeout().toSeconds()));
      }
      case SESSIONS -> {
        ArrayNode members = NODES.arrayNode();
        for (String id : system.sessionIds()) {
          members.addObject().put(WIRE.odata().id(), tree.link(tree.sessionsPath() + "/" + id));
        }
        overlay.result().set(WIRE.odata().members(), members);
        overlay
            .result()
            .set(
                WIRE.odata().members() + WIRE.odata().countSuffix(),
                IntNode.valueOf(members.size()));
      }
      case ACTION_INFO -> {
        ArrayNode values = NODES.arrayNode();
        config.allowableResetTypes().forEach(values::add);
        overlay.replace(state.actionInfoValues(), values);
      }
      case NIC -> {
        for (var pointer : state.macs()) {
          String published = resource.node().at(pointer).asText("");
          if (!published.isEmpty()) {
            overlay.replace(pointer, TextNode.valueOf(mac(system.id(), published)));
          }
        }
      }
      case CHASSIS -> {
        overlay.replace(
            state.powerState(), TextNode.valueOf(WIRE.powerStates().get(system.powerState())));
        double watts = system.watts();
        state.watts().forEach(p -> overlay.replace(p, DoubleNode.valueOf(watts)));
        double share = watts / tree.sharedWattsReadings();
        state.sharedWatts().forEach(p -> overlay.replace(p, DoubleNode.valueOf(share)));
      }
    }
    return render(overlay.result());
  }

  private byte[] render(ObjectNode node) {
    return PrefixedJson.render(ProfileTree.bytes(node), WIRE.root(), prefix);
  }

  private static TextNode dateTime(Instant instant) {
    return TextNode.valueOf(instant.truncatedTo(ChronoUnit.SECONDS).toString());
  }

  /** The serial number of simulated system {@code id}. */
  static String serialNumber(String id) {
    return "SIM-" + id.toUpperCase(Locale.ROOT);
  }

  /**
   * The MAC of simulated system {@code id} in place of the published {@code mac}: locally
   * administered, the same for the same published MAC (a VLAN keeps its NIC's), different per
   * system.
   */
  static String mac(String id, String published) {
    UUID hash =
        UUID.nameUUIDFromBytes(
            (id + "/" + published.toUpperCase(Locale.ROOT)).getBytes(StandardCharsets.UTF_8));
    long bits = hash.getMostSignificantBits();
    StringBuilder mac = new StringBuilder("52:54:00");
    for (int i = 0; i < 3; i++) {
      mac.append(String.format(Locale.ROOT, ":%02X", (bits >>> (8 * i)) & 0xff));
    }
    return mac.toString();
  }
}
