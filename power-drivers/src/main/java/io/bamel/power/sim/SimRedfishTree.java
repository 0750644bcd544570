package io.bamel.power.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The read-only Redfish resources of one simulated system, shaped by its {@link SimProfile}:
 * service root, Systems, the reset ActionInfo, Ethernet interfaces, processors, chassis with their
 * power resources, and the Manager with its host interfaces. Paths are relative to the service root
 * ({@code /redfish/v1}); every {@code @odata.id} is absolute and ends with {@code /} where the
 * profile says so. Built per request, from the system's state at that moment.
 */
final class SimRedfishTree {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The enclosure chassis id of a blade profile. */
  static final String ENCLOSURE_ID = "Enclosure";

  /** The draw an enclosure reports: every blade in it. */
  static final double ENCLOSURE_WATTS = 3000;

  private final SimulatedSystem system;
  private final SimProfile profile;
  private final String root;

  SimRedfishTree(SimulatedSystem system, String root) {
    this.system = system;
    this.profile = system.config().profile();
    this.root = root;
  }

  /** A link to {@code path} (relative to the service root), as the profile writes it. */
  String id(String path) {
    return root + path + (profile.trailingSlash() ? "/" : "");
  }

  /** The system's path. */
  String systemPath() {
    return "/Systems/" + profile.systemId();
  }

  /** The sessions collection's path. */
  String sessionsPath() {
    return profile.sessionsPath();
  }

  /** A read-only resource at {@code path} and the operation it counts as, if there is one. */
  Optional<Served> get(String path) {
    String sys = systemPath();
    String chassis = "/Chassis/" + profile.chassisId();
    String manager = "/Managers/" + profile.managerId();
    if (path.equals("/SessionService")) {
      return served(null, sessionService());
    }
    if (path.equals("/Systems")) {
      return served(
          SimOperation.SYSTEMS, collection("/Systems", "#ComputerSystemCollection", List.of(sys)));
    }
    if (path.equals(sys + "/ResetActionInfo")
        && profile.resetPublication() != SimProfile.ResetPublication.INLINE) {
      return served(SimOperation.ACTION_INFO, resetActionInfo(sys));
    }
    if (path.equals(sys + "/EthernetInterfaces")) {
      return served(
          SimOperation.ETHERNET,
          collection(
              sys + "/EthernetInterfaces",
              "#EthernetInterfaceCollection.EthernetInterfaceCollection",
              nicIds().stream().map(n -> sys + "/EthernetInterfaces/" + n).toList()));
    }
    if (path.startsWith(sys + "/EthernetInterfaces/")) {
      String nic = path.substring((sys + "/EthernetInterfaces/").length());
      return nicIds().contains(nic)
          ? served(SimOperation.ETHERNET, nic(sys, nic))
          : Optional.empty();
    }
    if (path.equals(sys + "/Processors")) {
      return served(
          SimOperation.INVENTORY,
          collection(
              sys + "/Processors",
              "#ProcessorCollection.ProcessorCollection",
              processorIds().stream().map(p -> sys + "/Processors/" + p).toList()));
    }
    if (path.startsWith(sys + "/Processors/")) {
      String cpu = path.substring((sys + "/Processors/").length());
      return processorIds().contains(cpu)
          ? served(SimOperation.INVENTORY, processor(sys, cpu))
          : Optional.empty();
    }
    if (path.equals("/Chassis")) {
      return served(
          SimOperation.CHASSIS,
          collection("/Chassis", "#ChassisCollection.ChassisCollection", chassisPaths()));
    }
    for (String c : chassisPaths()) {
      Optional<Served> found =
          chassisResource(path, c, c.equals(chassis) ? system.watts() : ENCLOSURE_WATTS);
      if (found.isPresent()) {
        return found;
      }
    }
    if (path.equals(manager)) {
      return served(SimOperation.INVENTORY, manager(manager));
    }
    if (profile.hostInterface() == SimProfile.HostInterface.HOST_INTERFACES) {
      String interfaces = manager + "/HostInterfaces";
      if (path.equals(interfaces)) {
        return served(
            SimOperation.INVENTORY,
            collection(
                interfaces,
                "#HostInterfaceCollection.HostInterfaceCollection",
                List.of(interfaces + "/1")));
      }
      if (path.equals(interfaces + "/1")) {
        ObjectNode hi = resource(interfaces + "/1", "#HostInterface.v1_3_0.HostInterface");
        hi.put("Id", "1");
        hi.put("HostInterfaceType", "NetworkHostInterface");
        hi.put("InterfaceEnabled", true);
        link(hi, "HostEthernetInterfaces", interfaces + "/1/HostEthernetInterfaces");
        link(hi, "ManagerEthernetInterface", manager + "/EthernetInterfaces/hostif");
        return served(SimOperation.INVENTORY, hi);
      }
      if (path.equals(interfaces + "/1/HostEthernetInterfaces")) {
        return served(
            SimOperation.INVENTORY,
            collection(
                interfaces + "/1/HostEthernetInterfaces",
                "#EthernetInterfaceCollection.EthernetInterfaceCollection",
                List.of(sys + "/EthernetInterfaces/" + HOST_NIC)));
      }
    }
    return Optional.empty();
  }

  /** A resource to answer and the operation to count. */
  record Served(SimOperation operation, ObjectNode body) {}

  private static Optional<Served> served(SimOperation operation, ObjectNode body) {
    return Optional.of(new Served(operation, body));
  }

  // ------------------------------------------------------------------ service root and sessions

  ObjectNode serviceRoot(boolean sessions) {
    ObjectNode body = JSON.createObjectNode();
    body.put("@odata.id", root + (profile.trailingSlash() ? "/" : ""));
    body.put("@odata.type", "#ServiceRoot.v1_11_0.ServiceRoot");
    body.put("Id", "RootService");
    body.put("RedfishVersion", "1.15.0");
    link(body, "Systems", "/Systems");
    link(body, "Chassis", "/Chassis");
    link(body, "Managers", "/Managers");
    if (sessions) {
      link(body, "SessionService", "/SessionService");
      body.putObject("Links").putObject("Sessions").put("@odata.id", id(sessionsPath()));
    }
    return body;
  }

  private ObjectNode sessionService() {
    ObjectNode body = resource("/SessionService", "#SessionService.v1_1_8.SessionService");
    body.put("ServiceEnabled", system.config().sessionService());
    body.put("SessionTimeout", system.config().sessionTimeout().toSeconds());
    link(body, "Sessions", sessionsPath());
    return body;
  }

  // ------------------------------------------------------------------ the system

  /** The ComputerSystem as it is now. */
  ObjectNode computerSystem(String etag, String powerState) {
    String sys = systemPath();
    ObjectNode body = resource(sys, "#ComputerSystem.v1_20_0.ComputerSystem");
    body.put("Id", profile.systemId());
    body.put("Name", system.id());
    body.put("Manufacturer", profile.manufacturer());
    body.put("Model", profile.model());
    body.put("SerialNumber", "SIM-" + system.id().toUpperCase(Locale.ROOT));
    body.put("UUID", SimulatedSystem.systemUuid(system.id()));
    body.put("BiosVersion", profile.biosVersion());
    body.put("PowerState", powerState);
    if (etag != null) {
      body.put("@odata.etag", etag);
    }
    ObjectNode processors = body.putObject("ProcessorSummary");
    processors.put("Count", 2);
    processors.put("Model", "Simulated CPU 32-Core");
    body.putObject("MemorySummary").put("TotalSystemMemoryGiB", 256);
    List<String> boot = system.bootOverride();
    ObjectNode bootNode = body.putObject("Boot");
    bootNode.put("BootSourceOverrideTarget", boot.get(0));
    bootNode.put("BootSourceOverrideEnabled", boot.get(1));
    ArrayNode targets = bootNode.putArray("BootSourceOverrideTarget@Redfish.AllowableValues");
    SimulatedSystem.BOOT_TARGETS.forEach(targets::add);
    if (profile.publishBootEnabled()) {
      ArrayNode enabled = bootNode.putArray("BootSourceOverrideEnabled@Redfish.AllowableValues");
      profile.bootEnabledValues().forEach(enabled::add);
    }
    if (profile != SimProfile.DEFAULT) {
      bootNode.put("BootSourceOverrideMode", system.bootMode());
      if (!profile.bootModeValues().isEmpty()) {
        ArrayNode modes = bootNode.putArray("BootSourceOverrideMode@Redfish.AllowableValues");
        profile.bootModeValues().forEach(modes::add);
      }
    }
    link(body, "EthernetInterfaces", sys + "/EthernetInterfaces");
    link(body, "Processors", sys + "/Processors");
    ObjectNode links = body.putObject("Links");
    ArrayNode chassis = links.putArray("Chassis");
    chassisPaths().forEach(c -> chassis.addObject().put("@odata.id", id(c)));
    links
        .putArray("ManagedBy")
        .addObject()
        .put("@odata.id", id("/Managers/" + profile.managerId()));
    ObjectNode reset = body.putObject("Actions").putObject("#ComputerSystem.Reset");
    reset.put("target", id(sys + "/Actions/ComputerSystem.Reset"));
    List<String> allowed = system.config().allowableResetTypes();
    switch (profile.resetPublication()) {
      case INLINE -> inline(reset, allowed);
      case ACTION_INFO -> reset.put("@Redfish.ActionInfo", id(sys + "/ResetActionInfo"));
      case INLINE_AND_ACTION_INFO -> {
        inline(reset, allowed);
        reset.put("@Redfish.ActionInfo", id(sys + "/ResetActionInfo"));
      }
      case MALFORMED_INLINE_AND_ACTION_INFO -> {
        inline(reset, allowed.stream().map(SimRedfishTree::displayName).toList());
        reset.put("@Redfish.ActionInfo", id(sys + "/ResetActionInfo"));
      }
    }
    return body;
  }

  private static void inline(ObjectNode reset, List<String> types) {
    ArrayNode values = reset.putArray("ResetType@Redfish.AllowableValues");
    types.forEach(values::add);
  }

  /**
   * A malformed list's entry: {@code GracefulShutdown} as its display name {@code Graceful
   * Shutdown} (so a client matching the enum value misses it); the others as they are.
   */
  private static String displayName(String type) {
    return type.equals("GracefulShutdown") ? "Graceful Shutdown" : type;
  }

  private ObjectNode resetActionInfo(String sys) {
    ObjectNode info = resource(sys + "/ResetActionInfo", "#ActionInfo.v1_1_2.ActionInfo");
    info.put("Id", "ResetActionInfo");
    info.put("Name", "Reset Action Info");
    ObjectNode parameter = info.putArray("Parameters").addObject();
    parameter.put("Name", "ResetType");
    parameter.put("Required", true);
    parameter.put("DataType", "String");
    ArrayNode values = parameter.putArray("AllowableValues");
    system.config().allowableResetTypes().forEach(values::add);
    return info;
  }

  // ------------------------------------------------------------------ network interfaces

  /** The system-side id of the host interface NIC linked from the Manager. */
  static final String HOST_NIC = "HostInterface1";

  /** The MAC of NIC {@code index} (1-based). */
  String nicMac(int index) {
    return SimRedfishTree.mac(index == 1 ? system.id() : system.id() + "#" + index);
  }

  /** The MAC of the BMC's host interface NIC. */
  String hostNicMac() {
    return SimRedfishTree.mac(system.id() + "#host-interface");
  }

  private List<String> nicIds() {
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= profile.nics(); i++) {
      ids.add(String.valueOf(i));
    }
    if (profile.vlanInterface()) {
      ids.add("VLAN1");
    }
    switch (profile.hostInterface()) {
      case TO_MANAGER -> ids.add("ToManager");
      case HOST_INTERFACES -> ids.add(HOST_NIC);
      case NONE -> {}
    }
    return ids;
  }

  private ObjectNode nic(String sys, String nic) {
    ObjectNode body =
        resource(sys + "/EthernetInterfaces/" + nic, "#EthernetInterface.v1_9_0.EthernetInterface");
    body.put("Id", nic);
    String mac;
    String type = "Physical";
    switch (nic) {
      case "VLAN1" -> {
        mac = nicMac(1);
        type = "Virtual";
        ObjectNode vlan = body.putObject("VLAN");
        vlan.put("VLANEnable", true);
        vlan.put("VLANId", 100);
      }
      case "ToManager", HOST_NIC -> {
        mac = hostNicMac();
        type = "Virtual";
        body.put("Description", "Interface to the BMC (host interface)");
      }
      default -> mac = nicMac(Integer.parseInt(nic));
    }
    body.put("EthernetInterfaceType", type);
    body.put("MACAddress", profile == SimProfile.DEFAULT ? mac : mac.toUpperCase(Locale.ROOT));
    body.put("LinkStatus", "LinkUp");
    return body;
  }

  // ------------------------------------------------------------------ processors

  private List<String> processorIds() {
    List<String> ids = new ArrayList<>(List.of("CPU1", "CPU2"));
    for (int i = 1; i <= profile.gpus().size(); i++) {
      ids.add("GPU" + i);
    }
    return ids;
  }

  private ObjectNode processor(String sys, String id) {
    ObjectNode body = resource(sys + "/Processors/" + id, "#Processor.v1_16_0.Processor");
    body.put("Id", id);
    if (id.startsWith("GPU")) {
      body.put("ProcessorType", "GPU");
      body.put("Manufacturer", "NVIDIA Corporation");
      body.put("Model", profile.gpus().get(Integer.parseInt(id.substring(3)) - 1));
    } else {
      body.put("ProcessorType", "CPU");
      body.put("Manufacturer", "Simulated");
      body.put("Model", "Simulated CPU 32-Core");
      body.put("TotalCores", 32);
    }
    body.putObject("Status").put("State", "Enabled");
    return body;
  }

  // ------------------------------------------------------------------ chassis and power

  /** The chassis the system links to, in its order: the enclosure first in a blade. */
  private List<String> chassisPaths() {
    String own = "/Chassis/" + profile.chassisId();
    return profile.bladeEnclosure() ? List.of("/Chassis/" + ENCLOSURE_ID, own) : List.of(own);
  }

  private Optional<Served> chassisResource(String path, String c, double watts) {
    boolean legacy = profile.power() != SimProfile.Power.SUBSYSTEM_ONLY;
    boolean subsystem = profile.power() != SimProfile.Power.LEGACY;
    boolean environment = profile.power() == SimProfile.Power.ALL;
    boolean enclosure = c.endsWith("/" + ENCLOSURE_ID);
    if (path.equals(c)) {
      ObjectNode body = resource(c, "#Chassis.v1_21_0.Chassis");
      body.put("Id", c.substring(c.lastIndexOf('/') + 1));
      body.put(
          "ChassisType",
          enclosure ? "Enclosure" : profile.bladeEnclosure() ? "Blade" : "RackMount");
      if (legacy) {
        link(body, "Power", c + "/Power");
      }
      if (subsystem) {
        link(body, "PowerSubsystem", c + "/PowerSubsystem");
      }
      if (environment) {
        link(body, "EnvironmentMetrics", c + "/EnvironmentMetrics");
      }
      ObjectNode links = body.putObject("Links");
      if (enclosure) {
        links
            .putArray("Contains")
            .addObject()
            .put("@odata.id", id("/Chassis/" + profile.chassisId()));
      } else {
        links.putArray("ComputerSystems").addObject().put("@odata.id", id(systemPath()));
        if (profile.bladeEnclosure()) {
          links.putObject("ContainedBy").put("@odata.id", id("/Chassis/" + ENCLOSURE_ID));
        }
      }
      return served(SimOperation.CHASSIS, body);
    }
    if (legacy && path.equals(c + "/Power")) {
      ObjectNode body = resource(c + "/Power", "#Power.v1_7_1.Power");
      ObjectNode control = body.putArray("PowerControl").addObject();
      control.put("@odata.id", id(c + "/Power") + "#/PowerControl/0");
      control.put("MemberId", "0");
      control.put("PowerConsumedWatts", watts);
      return served(SimOperation.POWER, body);
    }
    if (environment && path.equals(c + "/EnvironmentMetrics")) {
      ObjectNode body =
          resource(c + "/EnvironmentMetrics", "#EnvironmentMetrics.v1_3_0.EnvironmentMetrics");
      ObjectNode reading = body.putObject("PowerWatts");
      reading.put("DataSourceUri", id(c + "/Sensors/TotalPower"));
      reading.put("Reading", watts);
      return served(SimOperation.POWER, body);
    }
    if (subsystem && path.equals(c + "/PowerSubsystem")) {
      ObjectNode body = resource(c + "/PowerSubsystem", "#PowerSubsystem.v1_1_0.PowerSubsystem");
      body.put("CapacityWatts", 1600);
      link(body, "PowerSupplies", c + "/PowerSubsystem/PowerSupplies");
      return served(SimOperation.POWER, body);
    }
    String supplies = c + "/PowerSubsystem/PowerSupplies";
    if (subsystem && path.equals(supplies)) {
      return served(
          SimOperation.POWER,
          collection(
              supplies,
              "#PowerSupplyCollection.PowerSupplyCollection",
              List.of(supplies + "/0", supplies + "/1")));
    }
    for (String psu : List.of("0", "1")) {
      if (subsystem && path.equals(supplies + "/" + psu)) {
        ObjectNode body = resource(supplies + "/" + psu, "#PowerSupply.v1_5_0.PowerSupply");
        body.put("Id", psu);
        link(body, "Metrics", supplies + "/" + psu + "/Metrics");
        return served(SimOperation.POWER, body);
      }
      if (subsystem && path.equals(supplies + "/" + psu + "/Metrics")) {
        ObjectNode body =
            resource(
                supplies + "/" + psu + "/Metrics", "#PowerSupplyMetrics.v1_0_1.PowerSupplyMetrics");
        body.putObject("InputPowerWatts").put("Reading", watts / 2);
        return served(SimOperation.POWER, body);
      }
    }
    return Optional.empty();
  }

  // ------------------------------------------------------------------ the manager

  private ObjectNode manager(String manager) {
    ObjectNode body = resource(manager, "#Manager.v1_15_0.Manager");
    body.put("Id", profile.managerId());
    body.put("ManagerType", "BMC");
    if (profile.hostInterface() == SimProfile.HostInterface.HOST_INTERFACES) {
      link(body, "HostInterfaces", manager + "/HostInterfaces");
    }
    return body;
  }

  // ------------------------------------------------------------------ helpers

  private ObjectNode resource(String path, String type) {
    ObjectNode node = JSON.createObjectNode();
    node.put("@odata.id", id(path));
    node.put("@odata.type", type);
    return node;
  }

  private ObjectNode collection(String path, String type, List<String> members) {
    ObjectNode body = resource(path, type);
    body.put("Members@odata.count", members.size());
    ArrayNode array = body.putArray("Members");
    members.forEach(m -> array.addObject().put("@odata.id", id(m)));
    return body;
  }

  private void link(ObjectNode node, String name, String path) {
    node.putObject(name).put("@odata.id", id(path));
  }

  /** A locally administered-looking MAC derived from {@code seed}. */
  static String mac(String seed) {
    int h = seed.hashCode();
    return String.format(
        Locale.ROOT, "52:54:00:%02x:%02x:%02x", (h >> 16) & 0xff, (h >> 8) & 0xff, h & 0xff);
  }
}
