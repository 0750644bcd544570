package io.bamel.power.redfish.dmtf;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * What a reader of a DMTF mockup's JSON finds in it, read in the test without the driver: the
 * system a test targets, its power state, its power readings per data model, and its hardware
 * facts. The expected side of the contract tests.
 */
public final class MockupFacts {

  private final Mockup mockup;

  /** The facts of {@code mockup}. */
  public MockupFacts(Mockup mockup) {
    this.mockup = mockup;
  }

  /** The URIs the service root's {@code Systems} collection lists. */
  public List<String> systems() {
    JsonNode collection = mockup.follow(mockup.get(Mockup.ROOT).path("Systems"));
    List<String> uris = new ArrayList<>();
    collection.path("Members").forEach(m -> uris.add(m.path("@odata.id").asText()));
    return uris;
  }

  /**
   * The system a test drives: the only one, or, where the service lists several (a blade
   * enclosure), the second, so that a driver that picked the first one would be caught.
   */
  public String target() {
    List<String> systems = systems();
    return systems.size() == 1 ? systems.get(0) : systems.get(1);
  }

  /** The system's resource as published. */
  public JsonNode system() {
    return mockup.get(target());
  }

  /** The published {@code PowerState}. */
  public String powerState() {
    return system().path("PowerState").asText();
  }

  /** The published {@code Boot} values allowed for {@code property}, or empty. */
  public List<String> bootAllowable(String property) {
    List<String> values = new ArrayList<>();
    system()
        .path("Boot")
        .path(property + "@Redfish.AllowableValues")
        .forEach(v -> values.add(v.asText()));
    return values;
  }

  /** The system's chassis that contain none of its other chassis (a blade, not its enclosure). */
  private List<JsonNode> chassis() {
    List<JsonNode> all = new ArrayList<>();
    Set<String> uris = new HashSet<>();
    for (JsonNode link : system().path("Links").path("Chassis")) {
      uris.add(link.path("@odata.id").asText());
      all.add(mockup.follow(link));
    }
    List<JsonNode> counted = new ArrayList<>();
    for (JsonNode chassis : all) {
      boolean enclosure = false;
      for (JsonNode contained : chassis.path("Links").path("Contains")) {
        enclosure |= uris.contains(contained.path("@odata.id").asText());
      }
      if (!enclosure) {
        counted.add(chassis);
      }
    }
    return counted;
  }

  /** The sum over the system's chassis of {@code EnvironmentMetrics.PowerWatts.Reading}. */
  public OptionalDouble environmentMetricsWatts() {
    return sum(
        chassis().stream()
            .map(
                c -> mockup.follow(c.path("EnvironmentMetrics")).path("PowerWatts").path("Reading"))
            .toList());
  }

  /** The sum over the system's chassis of {@code Power.PowerControl[0].PowerConsumedWatts}. */
  public OptionalDouble legacyPowerWatts() {
    return sum(
        chassis().stream()
            .map(
                c ->
                    mockup
                        .follow(c.path("Power"))
                        .path("PowerControl")
                        .path(0)
                        .path("PowerConsumedWatts"))
            .toList());
  }

  /**
   * The system's draw as a Redfish client reads it: the newer {@code EnvironmentMetrics} reading
   * where the service publishes one, the deprecated {@code Power} resource's otherwise.
   */
  public OptionalDouble watts() {
    OptionalDouble newer = environmentMetricsWatts();
    return newer.isPresent() ? newer : legacyPowerWatts();
  }

  private static OptionalDouble sum(List<JsonNode> readings) {
    double total = 0;
    boolean any = false;
    for (JsonNode reading : readings) {
      if (reading.isNumber()) {
        total += reading.asDouble();
        any = true;
      }
    }
    return any ? OptionalDouble.of(total) : OptionalDouble.empty();
  }

  /** {@code SerialNumber}, or null. */
  public String serial() {
    return text(system(), "SerialNumber");
  }

  /** {@code UUID}, or null. */
  public String uuid() {
    return text(system(), "UUID");
  }

  /** {@code Manufacturer}, or null. */
  public String manufacturer() {
    return text(system(), "Manufacturer");
  }

  /** {@code Model}, or null. */
  public String model() {
    return text(system(), "Model");
  }

  /** {@code ProcessorSummary.Count}. */
  public int cpuCount() {
    return system().path("ProcessorSummary").path("Count").asInt();
  }

  /** {@code ProcessorSummary.Model}. */
  public String cpuModel() {
    return text(system().path("ProcessorSummary"), "Model");
  }

  /** {@code MemorySummary.TotalSystemMemoryGiB} in MiB. */
  public long memoryMiB() {
    return Math.round(
        system().path("MemorySummary").path("TotalSystemMemoryGiB").asDouble() * 1024);
  }

  /** The {@code ProcessorType: GPU} processors' count. */
  public int gpuCount() {
    int gpus = 0;
    for (JsonNode member : mockup.follow(system().path("Processors")).path("Members")) {
      if ("GPU".equals(mockup.follow(member).path("ProcessorType").asText())) {
        gpus++;
      }
    }
    return gpus;
  }

  /**
   * The host's NIC MACs: each {@code EthernetInterfaces} member's {@code MACAddress}, lowercase,
   * once, without the interfaces a managing BMC lists as its host interface's {@code
   * HostEthernetInterfaces} (the host's side of the link to the BMC, not a network port).
   */
  public List<String> macs() {
    Set<String> toBmc = new HashSet<>();
    for (JsonNode manager : system().path("Links").path("ManagedBy")) {
      JsonNode hostInterfaces = mockup.follow(mockup.follow(manager).path("HostInterfaces"));
      for (JsonNode hostInterface : hostInterfaces.path("Members")) {
        JsonNode nics = mockup.follow(mockup.follow(hostInterface).path("HostEthernetInterfaces"));
        nics.path("Members").forEach(n -> toBmc.add(n.path("@odata.id").asText()));
      }
    }
    Set<String> macs = new LinkedHashSet<>();
    for (JsonNode member : mockup.follow(system().path("EthernetInterfaces")).path("Members")) {
      if (!toBmc.contains(member.path("@odata.id").asText())) {
        String mac = mockup.follow(member).path("MACAddress").asText("");
        if (!mac.isEmpty()) {
          macs.add(mac.toLowerCase(Locale.ROOT));
        }
      }
    }
    return List.copyOf(macs);
  }

  private static String text(JsonNode node, String name) {
    JsonNode value = node.path(name);
    return value.isTextual() ? value.asText() : null;
  }
}
