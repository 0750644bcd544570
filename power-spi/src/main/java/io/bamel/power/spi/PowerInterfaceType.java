package io.bamel.power.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One power interface (Redfish, IPMI, Wake-on-LAN, Proxmox, ...), declared in one package of its
 * own and registered with one line in {@code
 * META-INF/services/io.bamel.power.spi.PowerInterfaceType} ({@link PowerInterfaceTypes} finds it).
 * It owns everything about the interface that the rest of bamel used to spell out by name: its wire
 * name, what it can do, the node spec field holding its settings, their checks and JSON schema, the
 * rules a node using it must follow, the BMC address and endpoint options it derives from the node,
 * and the flags of {@code bamel bmc}. The driver factory is in {@code power-drivers} ({@code
 * io.bamel.power.PowerDriverFactory}, a subtype), so the model sees this contract without seeing
 * any driver.
 *
 * <p>Implementations are stateless and thread-safe, and have a public no-argument constructor.
 */
public interface PowerInterfaceType {

  /** The wire name: {@code spec.powerInterface} in the API and etcd. Never changes. */
  String name();

  /** What the interface can do beyond power on and off. */
  PowerCapabilities capabilities();

  /**
   * The node spec field holding this interface's settings ({@code ipmi}, {@code wakeOnLan}, ...),
   * or {@code null} when it has none. The model keeps the field's value as it came (opaque to it)
   * and has {@link #checkSettings} check it wherever it is set.
   */
  default String settingsField() {
    return null;
  }

  /**
   * Checks the value of {@link #settingsField()} (not null), reporting on {@code checks} (already
   * nested under the field). Called whenever the field is set, whichever interface the node uses.
   */
  default void checkSettings(JsonNode settings, FieldChecks checks) {}

  /**
   * The members of the settings (not null) that the interface's settings type does not declare
   * ({@link SettingsJson#unknownMembers}). The model keeps them, as it keeps every field it does
   * not know (a newer bamel may have written them); the API refuses them as unknown fields.
   */
  default List<String> unknownSettings(JsonNode settings) {
    return List.of();
  }

  /**
   * Checks the settings (not null) against names the server's configuration defines for this
   * interface, {@code defined} (today: Wake-on-LAN's power-off commands, from {@code
   * wakeOnLan.powerOffCommandsFile}). The API calls it on every spec it writes; the model cannot,
   * as it does not know the server. Most interfaces name nothing of the server's.
   */
  default void checkDefinedNames(JsonNode settings, Set<String> defined, FieldChecks checks) {}

  /**
   * The JSON schema of the settings object (OpenAPI 3.1's dialect), written once, by hand, as a
   * resource beside the interface ({@link SettingsJson#schema}); the API's {@code /openapi.json}
   * puts it under {@code NodeSpec}'s property {@link #settingsField()}. {@code null} when the
   * interface has no settings field.
   */
  default JsonNode settingsSchema() {
    return null;
  }

  /**
   * Checks what a node using this interface must have (an address, its settings, ...), reporting on
   * {@code checks} with the spec's field names. The default asks for a {@code mgmtAddress}.
   */
  default void checkNode(NodeFacts node, FieldChecks checks) {
    checks.check(node.mgmtAddress() != null, "mgmtAddress", "required for " + name());
  }

  /** The spec field the driver's address comes from: {@code mgmtAddress} unless overridden. */
  default String addressField() {
    return "mgmtAddress";
  }

  /** The address the driver is given, or {@code null} when the node has none. */
  default String address(NodeFacts node) {
    return node.mgmtAddress();
  }

  /** The driver's endpoint options derived from the node (never a secret). */
  default Map<String, String> options(NodeFacts node) {
    return Map.of();
  }

  /**
   * Whether bamel can switch this node off through this interface (a pool picks a node for a
   * scale-down only if so). Every interface can unless it says otherwise.
   */
  default boolean canPowerOff(NodeFacts node) {
    return true;
  }

  /** The flags of {@code bamel bmc} this interface owns. */
  default List<CliFlag> cliFlags() {
    return List.of();
  }
}
