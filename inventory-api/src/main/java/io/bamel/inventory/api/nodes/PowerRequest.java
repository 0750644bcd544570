package io.bamel.inventory.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.inventory.api.http.ApiException;
import io.bamel.inventory.api.http.Problems;
import io.bamel.inventory.model.DesiredPower;
import io.bamel.inventory.model.FieldError;
import io.bamel.inventory.model.NodeSpec;
import io.bamel.inventory.model.PowerPolicy;
import io.bamel.inventory.model.Texts;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The body of {@code POST /api/v1/nodes/{id}/power}, and what it does to a spec (pure). {@code
 * {"state":"on"|"off"}} makes the operator the owner ({@code powerPolicy: manual}) and sets the
 * desired state; {@code {"policy":"pool"}} hands the node back to its pool (whose controller then
 * decides the state); {@code {"policy":"manual"}} takes the node over without changing the state.
 */
public record PowerRequest(DesiredPower state, PowerPolicy policy) {

  /**
   * Parses the body.
   *
   * @throws ApiException 400 on unknown members, wrong values, or a state with policy pool
   */
  public static PowerRequest parse(JsonNode body) {
    if (!body.isObject()) {
      throw Problems.invalid("", "must be a JSON object such as {\"state\":\"on\"}");
    }
    List<FieldError> errors = new ArrayList<>();
    DesiredPower state = null;
    PowerPolicy policy = null;
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      JsonNode value = body.get(name);
      switch (name) {
        case "state" -> {
          if (value.isTextual() && value.asText().equals("on")) {
            state = DesiredPower.ON;
          } else if (value.isTextual() && value.asText().equals("off")) {
            state = DesiredPower.OFF;
          } else {
            errors.add(new FieldError("state", "must be \"on\" or \"off\""));
          }
        }
        case "policy" -> {
          if (value.isTextual() && value.asText().equals("pool")) {
            policy = PowerPolicy.POOL;
          } else if (value.isTextual() && value.asText().equals("manual")) {
            policy = PowerPolicy.MANUAL;
          } else {
            errors.add(new FieldError("policy", "must be \"pool\" or \"manual\""));
          }
        }
        default -> errors.add(new FieldError(Texts.quote(name), "unknown field"));
      }
    }
    if (errors.isEmpty() && state == null && policy == null) {
      errors.add(new FieldError("state", "give a state (on, off) or a policy (pool, manual)"));
    }
    if (errors.isEmpty() && state != null && policy == PowerPolicy.POOL) {
      errors.add(
          new FieldError("policy", "with policy pool the pool decides the state; omit state"));
    }
    if (!errors.isEmpty()) {
      throw Problems.invalid("invalid power request", errors);
    }
    return new PowerRequest(state, policy);
  }

  /**
   * The spec after this request.
   *
   * @throws ApiException 409 when handing back to the pool a node that has no pool
   */
  public NodeSpec apply(String id, NodeSpec spec) {
    if (policy == PowerPolicy.POOL) {
      if (spec.pool() == null) {
        throw Problems.conflict("node " + id + " has no pool to hand its power back to");
      }
      return spec.toBuilder().powerPolicy(PowerPolicy.POOL).build();
    }
    NodeSpec next = spec.toBuilder().powerPolicy(PowerPolicy.MANUAL).build();
    return state == null ? next : next.toBuilder().desiredPower(state).build();
  }

  /** The event message. */
  public String describe() {
    return (state == null ? "" : "state " + state + ", ")
        + "policy "
        + (policy == null ? PowerPolicy.MANUAL : policy);
  }
}
