package io.bamel.power;

import java.util.List;

/**
 * What a BMC can tell about the hardware behind it. Every field may be {@code null} (or the list
 * empty) where the BMC does not say.
 *
 * <p>The MAC addresses are those of the system's own network interfaces, each once (a VLAN
 * interface repeating its parent's MAC is not listed again), without the BMC's host interface (the
 * USB or virtual NIC over which the host talks to its BMC: Redfish {@code HostInterface}'s host
 * Ethernet interfaces, or an interface named {@code ToManager}) and without all-zero MACs.
 *
 * @param manufacturer the system's manufacturer (the vendor)
 * @param model the system's model
 * @param serial the system's serial number
 * @param uuid the system's UUID, as the BMC writes it
 * @param biosVersion the version of the system's BIOS or primary firmware
 * @param cpuCount the number of processors (sockets)
 * @param cpuModel the processor model
 * @param memoryMiB the installed memory in MiB
 * @param gpus the GPUs the BMC lists, one entry per GPU
 * @param macAddresses the MAC addresses of the network interfaces, lowercase with colons
 */
public record HardwareInfo(
    String manufacturer,
    String model,
    String serial,
    String uuid,
    String biosVersion,
    Integer cpuCount,
    String cpuModel,
    Long memoryMiB,
    List<Gpu> gpus,
    List<String> macAddresses) {

  /**
   * One GPU.
   *
   * @param manufacturer its manufacturer, or {@code null}
   * @param model its model, or {@code null}
   */
  public record Gpu(String manufacturer, String model) {}

  /** Copies the lists. */
  public HardwareInfo {
    gpus = gpus == null ? List.of() : List.copyOf(gpus);
    macAddresses = macAddresses == null ? List.of() : List.copyOf(macAddresses);
  }

  /** Without UUID, BIOS version and GPUs (interfaces that cannot tell them). */
  public HardwareInfo(
      String manufacturer,
      String model,
      String serial,
      Integer cpuCount,
      String cpuModel,
      Long memoryMiB,
      List<String> macAddresses) {
    this(
        manufacturer,
        model,
        serial,
        null,
        null,
        cpuCount,
        cpuModel,
        memoryMiB,
        List.of(),
        macAddresses);
  }
}
