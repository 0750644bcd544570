package io.bamel.inventory.sync;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.Node;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.ObservedPower;
import io.bamel.inventory.model.PowerPolicy;
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
   * The errors of a DCIM write that sets {@code powerState} or {@code powerPolicy} to something
   * other than what is stored. With {@code leftOutKeeps} (PUT) a field that is null in {@code
   * incoming} was left out and keeps the stored value; otherwise (PATCH, which starts from the
   * stored spec) a null is an explicit removal. A value equal to the stored one, as stored or in
   * effect (no desired state is {@code off}; no policy is {@code pool} for a node in a pool, else
   * {@code manual}), is no change. For a new node ({@code current} null) the desired state may only
   * be absent or {@code off}, and the policy absent. Each error names the field, what is stored,
   * and {@code POST /api/v1/nodes/{id}/power}.
   */
  public static List<FieldError> powerFieldChanges(
      String id, NodeSpec current, NodeSpec incoming, boolean leftOutKeeps) {
    List<FieldError> errors = new ArrayList<>();
    String where = "POST /api/v1/nodes/" + id + "/power";
    DesiredPower state = incoming.desiredPower();
    PowerPolicy policy = incoming.powerPolicy();
    if (current == null) {
      if (state != null && state != DesiredPower.OFF) {
        errors.add(
            new FieldError("powerState", "a new node starts off; power it on through " + where));
      }
      if (policy != null) {
        errors.add(
            new FieldError(
                "powerPolicy", "a new node takes its pool's policy; set it through " + where));
      }
      return errors;
    }
    boolean stateKept =
        state == null
            ? leftOutKeeps || current.desiredPower() == null
            : state == current.desiredPower() || state == current.desiredPowerOrOff();
    if (!stateKept) {
      errors.add(
          new FieldError(
              "powerState",
              "is "
                  + current.desiredPowerOrOff().json()
                  + " for this node and is changed only through "
                  + where
                  + "; leave it out of the body to keep it"));
    }
    boolean policyKept =
        policy == null
            ? leftOutKeeps || current.powerPolicy() == null
            : policy == current.powerPolicy() || policy == current.effectivePowerPolicy();
    if (!policyKept) {
      errors.add(
          new FieldError(
              "powerPolicy",
              "is "
                  + current.effectivePowerPolicy().json()
                  + " for this node and is changed only through "
                  + where
                  + "; leave it out of the body to keep it"));
    }
    return errors;
  }

  /** {@code incoming} with the power fields of {@code current} (none when it is null). */
  public static NodeSpec keepPowerFields(NodeSpec incoming, NodeSpec current) {
    return incoming.toBuilder()
        .desiredPower(current == null ? null : current.desiredPower())
        .powerPolicy(current == null ? null : current.powerPolicy())
        .build();
  }

  /** Whether the node is desired on or observed on. */
  public static boolean isOn(Node node) {
    boolean desiredOn = node.spec().desiredPower() == DesiredPower.ON;
    boolean observedOn = node.status() != null && node.status().observedPower() == ObservedPower.ON;
    return desiredOn || observedOn;
  }

  /** Whether bamel drives the node's power. */
  public static boolean isManaged(Node node) {
    return node.spec().powerInterface() != null;
  }

  /**
   * An event message's account of a change: {@code changed a, b} naming the top-level fields that
   * differ ({@link #changedFields}), or {@code no change}.
   */
  public static String changeNote(NodeSpec before, NodeSpec after) {
    List<String> changed = changedFields(before, after);
    return changed.isEmpty() ? "no change" : "changed " + String.join(", ", changed);
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
