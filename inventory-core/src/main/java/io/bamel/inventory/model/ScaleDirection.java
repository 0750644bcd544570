package io.bamel.inventory.model;

/**
 * Which way a scaling trigger votes: {@code up} (add capacity) or {@code down} (remove it), in
 * {@link ScalingTrigger#scaleDirection()}. The JSON strings are the ones the field always had.
 */
public enum ScaleDirection implements JsonEnum {
  UP,
  DOWN;

  @Override
  public String toString() {
    return json();
  }
}
