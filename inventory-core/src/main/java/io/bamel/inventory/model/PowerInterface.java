package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.bamel.power.spi.PowerCapabilities;
import io.bamel.power.spi.PowerInterfaceType;
import io.bamel.power.spi.PowerInterfaceTypes;
import java.util.Objects;

/**
 * How a node's power is driven: the name of a registered power interface ({@link
 * PowerInterfaceTypes}: {@code redfish}, {@code ipmi}, {@code wol}, {@code proxmox} and any other
 * on the class path). The model knows no interface by name; what one can do and what a node using
 * it must have come from its {@link PowerInterfaceType}.
 */
public final class PowerInterface {

  // One instance per registered type, shared by every node that uses it.
  private static final Canonical<PowerInterfaceType, PowerInterface> SHARED = new Canonical<>(64);

  private final PowerInterfaceType type;

  private PowerInterface(PowerInterfaceType type) {
    this.type = type;
  }

  /**
   * The registered interface named {@code text} in JSON.
   *
   * @throws InvalidInputException on {@code powerInterface}, naming the registered ones, when no
   *     interface has that name
   */
  @JsonCreator
  public static PowerInterface fromJson(String text) {
    return PowerInterfaceTypes.find(text)
        .map(type -> SHARED.get(type, PowerInterface::new))
        .orElseThrow(
            () ->
                new InvalidInputException(
                    "powerInterface",
                    "unknown value "
                        + Texts.quote(text)
                        + "; expected one of "
                        + String.join(", ", PowerInterfaceTypes.names())));
  }

  /** The registered interface named {@code name}; as {@link #fromJson}. */
  public static PowerInterface of(String name) {
    return fromJson(name);
  }

  /** The name used in JSON, in the API and in etcd. */
  @JsonValue
  public String json() {
    return type.name();
  }

  /** The interface's declaration: capabilities, settings, node rules, endpoint options. */
  public PowerInterfaceType type() {
    return type;
  }

  /** What the interface can do beyond power on and off. */
  public PowerCapabilities capabilities() {
    return type.capabilities();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PowerInterface other && other.json().equals(json());
  }

  @Override
  public int hashCode() {
    return Objects.hash(json());
  }

  @Override
  public String toString() {
    return json();
  }
}
