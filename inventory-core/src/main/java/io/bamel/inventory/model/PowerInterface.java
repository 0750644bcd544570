package io.bamel.inventory.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a node's power is driven: the power driver that serves it. */
public enum PowerInterface implements JsonEnum {
  REDFISH("redfish"),
  IPMI("ipmi"),
  WOL("wol"),
  PROXMOX("proxmox");

  private final String json;

  PowerInterface(String json) {
    this.json = json;
  }

  @JsonValue
  @Override
  public String json() {
    return json;
  }

  /**
   * The constant named {@code text} in JSON.
   *
   * @throws InvalidInputException naming the accepted values when there is none
   */
  @JsonCreator
  public static PowerInterface fromJson(String text) {
    return Enums.parse(values(), text, "powerInterface");
  }

  /**
   * Whether bamel can inspect a node's hardware through this interface (Redfish, IPMI's FRU,
   * Proxmox's VM config); Wake-on-LAN has no management controller to ask.
   */
  public boolean canInspect() {
    return this != WOL;
  }

  /**
   * Whether the driver can set a one-time boot device, so a network (PXE) {@code bootProfile} can
   * be honoured: Redfish and IPMI can; Wake-on-LAN (a magic packet only) and Proxmox (the VM's boot
   * order is set in Proxmox) cannot.
   */
  public boolean canSetBootDevice() {
    return this == REDFISH || this == IPMI;
  }

  @Override
  public String toString() {
    return json;
  }
}
