package io.bamel.power;

import java.util.List;

/**
 * What a BMC can tell about the hardware behind it. Every field may be {@code null} (or the list
 * empty) where the BMC does not say.
 *
 * @param manufacturer the system's manufacturer
 * @param model the system's model
 * @param serial the system's serial number
 * @param cpuCount the number of processors (sockets)
 * @param cpuModel the processor model
 * @param memoryMiB the installed memory in MiB
 * @param macAddresses the MAC addresses of the network interfaces, lowercase with colons
 */
public record HardwareInfo(
    String manufacturer,
    String model,
    String serial,
    Integer cpuCount,
    String cpuModel,
    Long memoryMiB,
    List<String> macAddresses) {

  /** Copies the list. */
  public HardwareInfo {
    macAddresses = macAddresses == null ? List.of() : List.copyOf(macAddresses);
  }
}
