package io.bamel.inventory.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerState;
import io.bamel.inventory.store.Codec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The API's rules about node specs, as pure functions. DCIM writes (PUT, PATCH, sync) own the
 * hardware and location fields; {@code powerState} and {@code powerPolicy} belong to the power
 * endpoint and the pool controller, so those writes keep the stored values. A node is <em>on</em>
 * when it is desired on or observed on; it is <em>managed</em> when bamel drives its power (it has
 * a power interface).
 */
public final class SpecRules {

  private SpecRules() {}

  /**
   * The errors of an attempt to change {@code powerState} or {@code powerPolicy} through a DCIM
   * write. For a new node ({@code current} null) the desired state may only be absent or {@code
   * off}, and the policy absent.
   */
  public static List<FieldError> powerFieldChanges(NodeSpec current, NodeSpec incoming) {
    List<FieldError> errors = new ArrayList<>();
    String hint = "is changed only through POST /api/v1/nodes/{id}/power";
    PowerState state = incoming.powerState();
    boolean stateOk =
        current == null
            ? state == null || state == PowerState.OFF
            : Objects.equals(current.powerState(), state);
    if (!stateOk) {
      errors.add(new FieldError("powerState", hint));
    }
    if (!Objects.equals(current == null ? null : current.powerPolicy(), incoming.powerPolicy())) {
      errors.add(new FieldError("powerPolicy", hint));
    }
    return errors;
  }

  /** {@code incoming} with the power fields of {@code current} (none when it is null). */
  public static NodeSpec keepPowerFields(NodeSpec incoming, NodeSpec current) {
    return incoming.toBuilder()
        .powerState(current == null ? null : current.powerState())
        .powerPolicy(current == null ? null : current.powerPolicy())
        .build();
  }

  /** Whether the node is desired on or observed on. */
  public static boolean isOn(Node node) {
    boolean desiredOn = node.spec().powerState() == PowerState.ON;
    boolean observedOn = node.status() != null && node.status().powerState() == PowerState.ON;
    return desiredOn || observedOn;
  }

  /** Whether bamel drives the node's power. */
  public static boolean isManaged(Node node) {
    return node.spec().powerInterface() != null;
  }

  /** The top-level spec fields that differ, sorted, for event messages. */
  public static List<String> changedFields(NodeSpec before, NodeSpec after) {
    JsonNode a =
        before == null ? Codec.mapper().createObjectNode() : Codec.mapper().valueToTree(before);
    JsonNode b = Codec.mapper().valueToTree(after);
    TreeSet<String> names = new TreeSet<>();
    for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    List<String> changed = new ArrayList<>();
    for (String name : names) {
      if (!Objects.equals(a.get(name), b.get(name))) {
        changed.add(name);
      }
    }
    return changed;
  }
}
