package io.bamel.pool;

import io.bamel.inventory.model.ScaleDirection;
import java.util.Objects;

/**
 * One trigger's vote at one evaluation: the trigger's {@code name}, the way it votes and whether it
 * votes now (its condition held for its duration).
 */
public record TriggerVote(String trigger, ScaleDirection direction, boolean cast) {

  /** Checks that the trigger and direction are given. */
  public TriggerVote {
    Objects.requireNonNull(trigger, "trigger");
    Objects.requireNonNull(direction, "direction");
  }
}
