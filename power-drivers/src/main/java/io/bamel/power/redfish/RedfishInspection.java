package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import io.bamel.power.HardwareInfo;
import io.bamel.power.PowerException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Reads a system's hardware facts by following its links: the ComputerSystem (manufacturer, model,
 * serial, UUID, BIOS version, processor and memory summaries), its processors (the GPUs among them,
 * and the CPU count and model where the summary lacks them), its Ethernet interfaces, and its
 * Managers' host interfaces (whose host-side NICs are left out).
 *
 * <p>MAC addresses are listed once each (a VLAN interface repeats its parent's MAC), lowercase,
 * without all-zero ones, and without the BMC's host interface: an interface linked from a Manager's
 * {@code HostInterfaces/*}/{@code HostEthernetInterfaces}, or one with the id {@code ToManager}
 * (the name Lenovo XCC and DMTF's mockups give the host's side of that link).
 */
final class RedfishInspection {

  /** The id conventionally given to the host's NIC towards its BMC. */
  static final String TO_MANAGER = "ToManager";

  private RedfishInspection() {}

  static HardwareInfo inspect(JsonNode system, RedfishFetch fetch, UnaryOperator<String> resolve)
      throws PowerException {
    Set<String> hostSide = hostInterfaceNics(system, fetch, resolve);
    List<JsonNode> nics = members(system, RedfishNames.ETHERNET_INTERFACES, fetch, resolve);
    List<JsonNode> processors = members(system, RedfishNames.PROCESSORS, fetch, resolve);
    JsonNode summary = system.path(RedfishNames.PROCESSOR_SUMMARY);
    JsonNode memory =
        system.path(RedfishNames.MEMORY_SUMMARY).path(RedfishNames.TOTAL_SYSTEM_MEMORY_GIB);
    List<JsonNode> cpus = processors.stream().filter(RedfishInspection::isCpu).toList();
    Integer cpuCount =
        summary.path(RedfishNames.COUNT).isNumber()
            ? Integer.valueOf(summary.path(RedfishNames.COUNT).asInt())
            : cpus.isEmpty() ? null : cpus.size();
    String cpuModel = text(summary, RedfishNames.MODEL);
    if (cpuModel == null && !cpus.isEmpty()) {
      cpuModel = text(cpus.get(0), RedfishNames.MODEL);
    }
    return new HardwareInfo(
        text(system, RedfishNames.MANUFACTURER),
        text(system, RedfishNames.MODEL),
        text(system, RedfishNames.SERIAL_NUMBER),
        text(system, RedfishNames.UUID),
        text(system, RedfishNames.BIOS_VERSION),
        cpuCount,
        cpuModel,
        memory.isNumber() ? Math.round(memory.asDouble() * 1024) : null,
        gpus(processors),
        macs(nics, hostSide));
  }

  /**
   * The MACs of {@code nics}: each once, lowercase, without all-zero ones, without the host
   * interface ({@code hostSide}: normalised {@code @odata.id}s; or the id {@code ToManager}). Pure.
   */
  static List<String> macs(List<JsonNode> nics, Set<String> hostSide) {
    Set<String> macs = new LinkedHashSet<>();
    for (JsonNode nic : nics) {
      String id = PowerSources.normal(nic.path(RedfishNames.ODATA_ID).asText(""));
      String last = id.substring(id.lastIndexOf('/') + 1);
      if (hostSide.contains(id) || TO_MANAGER.equals(nic.path(RedfishNames.ID).asText(last))) {
        continue;
      }
      String mac = text(nic, RedfishNames.MAC_ADDRESS);
      if (mac == null) {
        mac = text(nic, RedfishNames.PERMANENT_MAC_ADDRESS);
      }
      if (mac == null) {
        continue;
      }
      String normal = mac.trim().toLowerCase(Locale.ROOT).replace('-', ':');
      if (!normal.matches("[0-9a-f]{2}(:[0-9a-f]{2}){5}") || normal.equals("00:00:00:00:00:00")) {
        continue;
      }
      macs.add(normal);
    }
    return List.copyOf(macs);
  }

  /** The GPUs among {@code processors} ({@code ProcessorType} {@code GPU}, not absent). Pure. */
  static List<HardwareInfo.Gpu> gpus(List<JsonNode> processors) {
    List<HardwareInfo.Gpu> gpus = new ArrayList<>();
    for (JsonNode processor : processors) {
      if (RedfishNames.PROCESSOR_GPU.equals(processor.path(RedfishNames.PROCESSOR_TYPE).asText())
          && !absent(processor)) {
        gpus.add(
            new HardwareInfo.Gpu(
                text(processor, RedfishNames.MANUFACTURER), text(processor, RedfishNames.MODEL)));
      }
    }
    return gpus;
  }

  private static boolean isCpu(JsonNode processor) {
    String type = processor.path(RedfishNames.PROCESSOR_TYPE).asText(RedfishNames.PROCESSOR_CPU);
    return type.equals(RedfishNames.PROCESSOR_CPU) && !absent(processor);
  }

  private static boolean absent(JsonNode resource) {
    return RedfishNames.ABSENT.equals(
        resource.path(RedfishNames.STATUS).path(RedfishNames.STATE).asText());
  }

  /** The normalised ids of the host-side NICs of every host interface of the system's Managers. */
  private static Set<String> hostInterfaceNics(
      JsonNode system, RedfishFetch fetch, UnaryOperator<String> resolve) throws PowerException {
    Set<String> nics = new HashSet<>();
    for (JsonNode managerLink : system.path(RedfishNames.LINKS).path(RedfishNames.MANAGED_BY)) {
      Optional<JsonNode> manager =
          get(managerLink.path(RedfishNames.ODATA_ID).asText(""), fetch, resolve);
      if (manager.isEmpty()) {
        continue;
      }
      for (JsonNode hostInterface :
          members(manager.get(), RedfishNames.HOST_INTERFACES, fetch, resolve)) {
        for (JsonNode nic :
            links(hostInterface, RedfishNames.HOST_ETHERNET_INTERFACES, fetch, resolve)) {
          nics.add(PowerSources.normal(nic.path(RedfishNames.ODATA_ID).asText("")));
        }
      }
    }
    return nics;
  }

  /** The member resources of the collection {@code node} links to as {@code name}. */
  private static List<JsonNode> members(
      JsonNode node, String name, RedfishFetch fetch, UnaryOperator<String> resolve)
      throws PowerException {
    List<JsonNode> members = new ArrayList<>();
    for (JsonNode member : links(node, name, fetch, resolve)) {
      get(member.path(RedfishNames.ODATA_ID).asText(""), fetch, resolve).ifPresent(members::add);
    }
    return members;
  }

  /** The {@code Members} links of the collection {@code node} links to as {@code name}. */
  private static List<JsonNode> links(
      JsonNode node, String name, RedfishFetch fetch, UnaryOperator<String> resolve)
      throws PowerException {
    Optional<JsonNode> collection =
        get(node.path(name).path(RedfishNames.ODATA_ID).asText(""), fetch, resolve);
    List<JsonNode> links = new ArrayList<>();
    collection.ifPresent(c -> c.path(RedfishNames.MEMBERS).forEach(links::add));
    return links;
  }

  private static Optional<JsonNode> get(
      String link, RedfishFetch fetch, UnaryOperator<String> resolve) throws PowerException {
    return link.isEmpty() ? Optional.empty() : fetch.get(resolve.apply(link));
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() && !value.asText().isBlank() ? value.asText() : null;
  }
}
