package io.bamel.inventory.sync;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.Validator;
import io.bamel.inventory.store.Codec;
import io.bamel.power.spi.PowerInterfaceType;
import io.bamel.power.spi.PowerInterfaceTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The spec fields that decide where bamel sends a BMC credential, what it runs and what it acts on:
 * {@code mgmtAddress}, {@code bmcCredentials}, {@code bmcTls}, {@code powerInterface}, the settings
 * field of every power interface ({@code ipmi}: cipher suite and privilege, {@code wakeOnLan},
 * {@code proxmox}, and any registered later) and {@code kubernetesNodeName} (the Kubernetes node
 * the node controller cordons, drains, labels and uncordons; the node controller also checks that
 * node's reported identity before it acts). Pure functions. Creating a node with any of them set,
 * or changing any of them, needs the API's scope {@code bmc}; a value equal to the stored one is no
 * change, so a DCIM sync that sends the same address again needs only {@code write}. The caller
 * says whether it may ({@code mayChange}) and gives its name: no scope type is known here.
 */
public final class PowerControlFields {

  /**
   * The fields, in the order they are reported: the addresses, credentials, TLS and interface of
   * every node, then the settings field of every registered power interface ({@code ipmi}, {@code
   * wakeOnLan}, {@code proxmox}, ...: {@link PowerInterfaceTypes#settingsFields}), then {@code
   * kubernetesNodeName}.
   */
  public static final List<String> NAMES = names();

  private static List<String> names() {
    List<String> names =
        new ArrayList<>(List.of("mgmtAddress", "bmcCredentials", "bmcTls", "powerInterface"));
    names.addAll(PowerInterfaceTypes.settingsFields());
    names.add("kubernetesNodeName");
    return List.copyOf(names);
  }

  private PowerControlFields() {}

  /**
   * The power-control fields that {@code after} sets differently from {@code before}; for a new
   * node ({@code before} null), those {@code after} sets at all.
   */
  public static List<String> changed(NodeSpec before, NodeSpec after) {
    List<String> changed = new ArrayList<>();
    for (String name : NAMES) {
      Object a = before == null ? null : before.facts(null).value(name);
      Object b = after.facts(null).value(name);
      if (!same(a, b)) {
        changed.add(name);
      }
    }
    return changed;
  }

  /** Whether a caller may make the change {@code fields} lists: none, or it may change them. */
  public static boolean allowed(boolean mayChange, List<String> fields) {
    return fields.isEmpty() || mayChange;
  }

  /**
   * Why {@code caller} (a token's owner) may not set {@code fields} of node {@code id}: the 403
   * problem's detail, and a sync's rejection reason.
   */
  public static String refusal(String caller, String id, boolean create, List<String> fields) {
    return "token "
        + caller
        + " lacks scope bmc, which "
        + (create ? "creating node " + id + " with " : "changing ")
        + String.join(", ", fields)
        + (create ? "" : " of node " + id)
        + " needs: these fields decide where bamel sends BMC credentials, what it runs and which"
        + " Kubernetes node it acts on";
  }

  /** One error per refused field. */
  public static List<FieldError> fieldErrors(List<String> fields) {
    return fields.stream().map(f -> new FieldError(f, "needs scope bmc to set or change")).toList();
  }

  /**
   * The errors of a spec whose power interface settings name something the server does not define
   * ({@code known}: the power-off command names in {@code wakeOnLan.powerOffCommandsFile}, which
   * {@code wakeOnLan.powerOffCommand} must name). Each interface checks its own settings ({@link
   * PowerInterfaceType#checkDefinedNames}).
   */
  public static List<FieldError> unknownCommand(NodeSpec spec, Set<String> known) {
    Validator v = new Validator();
    for (PowerInterfaceType type : PowerInterfaceTypes.all()) {
      JsonNode settings = type.settingsField() == null ? null : spec.settings(type.settingsField());
      if (settings != null) {
        type.checkDefinedNames(settings, known, v.at(type.settingsField()));
      }
    }
    return v.errors();
  }

  /** The event message part naming the power-control fields changed, empty when none. */
  public static String eventNote(List<String> fields) {
    return fields.isEmpty() ? "" : " (power control: " + String.join(", ", fields) + ")";
  }

  private static boolean same(Object a, Object b) {
    if (Objects.equals(a, b)) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    return Arrays.equals(Codec.encode(a), Codec.encode(b));
  }
}
