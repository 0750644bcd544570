package io.bamel.inventory.model;

/**
 * A power action the node controller asks a node's BMC for: {@code power-on}, {@code power-off}
 * (graceful), {@code power-off-force} or {@code power-cycle}. The one power-action type of the
 * model: the controller decides with it, records it in {@code status.lastPowerAction} before the
 * call (the write-ahead), and names it in events; the node controller maps it to a driver's {@code
 * PowerCommand} in one place ({@code NodeBmc}).
 */
public enum PowerAction implements JsonEnum {
  POWER_ON,
  POWER_OFF,
  POWER_OFF_FORCE,
  POWER_CYCLE;

  @Override
  public String toString() {
    return json();
  }
}
