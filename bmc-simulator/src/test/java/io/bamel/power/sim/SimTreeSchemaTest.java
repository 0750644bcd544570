package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.power.BmcPowerState;
import io.bamel.redfish.dmtf.DmtfFiles;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every resource the simulator serves, for every vendor profile (and the default profile on every
 * published tree), validates against DMTF's JSON schema for its {@code @odata.type}: the walk
 * starts at the service root and follows every {@code @odata.id}, over HTTP, as a client would. A
 * resource whose schema redfish-dmtf does not carry is listed in {@link #UNVALIDATED}, which the
 * walk checks so the list cannot grow unnoticed; every link the walk cannot follow is one the
 * published tree itself leaves dangling.
 */
class SimTreeSchemaTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "schema-walk-pw";

  /**
   * The schema namespaces of served resources that redfish-dmtf carries no schema for (it carries
   * the schemas of what bamel reads): served as DMTF published them, with no state overlaid except
   * the power supplies' metrics, and not validated.
   */
  static final Set<String> UNVALIDATED =
      Set.of(
          "AccelerationFunction",
          "AccelerationFunctionCollection",
          "AccountService",
          "Assembly",
          "Battery",
          "BatteryCollection",
          "BatteryMetrics",
          "Bios",
          "Certificate",
          "CertificateCollection",
          "CertificateEnrollment",
          "CertificateEnrollmentCollection",
          "CertificateLocations",
          "CertificateService",
          "ComponentIntegrity",
          "ComponentIntegrityCollection",
          "ControlCollection",
          "CoolantConnector",
          "CoolantConnectorCollection",
          "Drive",
          "DriveCollection",
          "EventDestination",
          "EventDestinationCollection",
          "EventService",
          "ExternalAccountProvider",
          "ExternalAccountProviderCollection",
          "Fan",
          "FanCollection",
          "GraphicsController",
          "GraphicsControllerCollection",
          "Heater",
          "HeaterCollection",
          "HeaterMetrics",
          "HostInterface",
          "HostInterfaceCollection",
          "Key",
          "KeyCollection",
          "KeyPolicy",
          "KeyPolicyCollection",
          "KeyService",
          "LogEntry",
          "LogEntryCollection",
          "LogService",
          "LogServiceCollection",
          "ManagerAccount",
          "ManagerAccountCollection",
          "ManagerNetworkProtocol",
          "MessageRegistryFile",
          "MessageRegistryFileCollection",
          "NetworkAdapter",
          "NetworkAdapterCollection",
          "NetworkDeviceFunction",
          "NetworkDeviceFunctionCollection",
          "NetworkInterface",
          "NetworkInterfaceCollection",
          "OutboundConnection",
          "OutboundConnectionCollection",
          "PCIeDevice",
          "PCIeDeviceCollection",
          "PCIeSlots",
          "Port",
          "PortCollection",
          "PowerSupplyMetrics",
          "ProcessorMetrics",
          "Pump",
          "PumpCollection",
          "Role",
          "RoleCollection",
          "SecureBoot",
          "SecureBootDatabase",
          "SecureBootDatabaseCollection",
          "SecurityPolicy",
          "SerialInterface",
          "SerialInterfaceCollection",
          "ServiceConditions",
          "Signature",
          "SignatureCollection",
          "SimpleStorage",
          "SimpleStorageCollection",
          "SoftwareInventory",
          "SoftwareInventoryCollection",
          "Storage",
          "StorageCollection",
          "Task",
          "TaskCollection",
          "TaskService",
          "ThermalMetrics",
          "ThermalSubsystem",
          "TrustedComponent",
          "TrustedComponentCollection",
          "USBController",
          "USBControllerCollection",
          "UpdateService",
          "VLanNetworkInterface",
          "VLanNetworkInterfaceCollection",
          "VirtualMedia",
          "VirtualMediaCollection",
          "Volume",
          "VolumeCollection");

  /**
   * Errors in DMTF's published mockups themselves, served as published: each is checked to occur in
   * the published file too ({@link #publishedDefectsAreDmtfsOwn}).
   */
  static final Map<String, String> PUBLISHED_DEFECTS =
      Map.of(
          "public-tower /redfish/v1/Chassis/Tower/EnvironmentMetrics: : required property 'Id' not found",
          "mockups/public-tower/Chassis/Tower/EnvironmentMetrics/index.json",
          "public-tower /redfish/v1/Chassis/Tower/PowerSubsystem: : required property 'Id' not found",
          "mockups/public-tower/Chassis/Tower/PowerSubsystem/index.json",
          "public-liquid-cooled-server /redfish/v1/Chassis/1U/EnvironmentMetrics: : required property 'Id' not found",
          "mockups/public-liquid-cooled-server/Chassis/1U/EnvironmentMetrics/index.json");

  static SimulatedBmcFleet fleet;
  static DmtfSchemas schemas;
  static HttpClient http;
  static int next;

  @BeforeAll
  static void start() {
    fleet = SimulatedBmcFleet.start(false);
    schemas = new DmtfSchemas();
    http = HttpClient.newHttpClient();
  }

  @AfterAll
  static void stop() {
    fleet.close();
  }

  static Stream<SimProfile> profiles() {
    List<SimProfile> all = new ArrayList<>(SimProfile.ALL);
    all.add(SimProfile.IDRAC9.inBladeEnclosure());
    all.add(SimProfile.OPENBMC.inBladeEnclosure());
    DmtfFiles.MOCKUPS.stream().skip(1).forEach(m -> all.add(SimProfile.DEFAULT.onMockup(m)));
    return all.stream();
  }

  /** A system of {@code profile} that is on, with a session and a boot override set. */
  private static SimulatedSystem running(SimProfile profile) throws Exception {
    SimulatedSystem system =
        fleet.add(
            "walk-" + next++,
            SimSystemConfig.defaults().withCredentials("admin", PASSWORD).withProfile(profile));
    system.forcePowerState(BmcPowerState.ON);
    system.login("admin", PASSWORD).orElseThrow();
    return system;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("profiles")
  void everyServedResourceValidatesAgainstItsDmtfSchema(SimProfile profile) throws Exception {
    SimulatedSystem system = running(profile);
    Walk walk = walk(system.id());

    assertThat(walk.served)
        .as("the walk reaches the system")
        .containsKey(fleet.systemUri(system.id()).replace(fleet.baseUrl(), ""));
    List<String> errors = new ArrayList<>();
    Set<String> unvalidated = new TreeSet<>();
    walk.served.forEach(
        (path, body) -> {
          String type = body.path("@odata.type").asText();
          String relative = path.substring(("/bmc/" + system.id()).length());
          schemas
              .fileFor(type)
              .ifPresentOrElse(
                  file ->
                      schemas
                          .validate(body, file)
                          .forEach(e -> errors.add(profile.mockup() + " " + relative + ": " + e)),
                  () -> unvalidated.add(DmtfSchemas.namespace(type)));
        });

    assertThat(errors).as("schema errors").isSubsetOf(PUBLISHED_DEFECTS.keySet());
    assertThat(unvalidated).as("served without a carried schema").isSubsetOf(UNVALIDATED);
    assertThat(walk.foreignLinks).as("links outside the system's service root").isEmpty();
    assertThat(walk.missing).as("links not served").isEmpty();
  }

  @Test
  void publishedDefectsAreDmtfsOwn() throws Exception {
    for (Map.Entry<String, String> defect : PUBLISHED_DEFECTS.entrySet()) {
      JsonNode published = JSON.readTree(DmtfFiles.read(defect.getValue()).orElseThrow());
      String file = schemas.fileFor(published.path("@odata.type").asText()).orElseThrow();
      String message = defect.getKey().substring(defect.getKey().indexOf(": ") + 2);

      assertThat(schemas.validate(published, file))
          .as(defect.getValue())
          .map(Object::toString)
          .contains(message);
    }
  }

  @Test
  void anInventedPropertyFailsTheComputerSystemSchema() throws Exception {
    SimulatedSystem system = running(SimProfile.DEFAULT);
    String path = fleet.systemUri(system.id()).replace(fleet.baseUrl(), "");
    ObjectNode served = (ObjectNode) get(path).body;
    String file = schemas.fileFor(served.path("@odata.type").asText()).orElseThrow();
    assertThat(schemas.validate(served, file)).as("as served").isEmpty();

    ObjectNode invented = served.deepCopy();
    invented.set("BmcPowerState", invented.remove("PowerState"));

    assertThat(schemas.validate(invented, file))
        .as("BmcPowerState in place of PowerState")
        .isNotEmpty()
        .anyMatch(e -> e.toString().contains("BmcPowerState"));
  }

  // ------------------------------------------------------------------ the walk

  private record Got(int status, JsonNode body) {}

  private static final class Walk {
    final Map<String, JsonNode> served = new LinkedHashMap<>();
    final Set<String> missing = new TreeSet<>();
    final Set<String> foreignLinks = new TreeSet<>();
  }

  private static Walk walk(String id) throws Exception {
    String prefix = "/bmc/" + id + "/redfish/v1";
    Walk walk = new Walk();
    Deque<String> queue = new ArrayDeque<>(List.of(prefix));
    Set<String> seen = new TreeSet<>(List.of(prefix));
    while (!queue.isEmpty()) {
      String path = queue.removeFirst();
      Got got = get(path);
      if (got.status != 200) {
        walk.missing.add(path + " " + got.status);
        continue;
      }
      walk.served.put(path, got.body);
      List<String> links = new ArrayList<>();
      collectLinks(got.body, links);
      for (String link : links) {
        String target = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
        target =
            target.length() > 1 && target.endsWith("/")
                ? target.substring(0, target.length() - 1)
                : target;
        if (!target.startsWith("/")) {
          continue; // another service's resource (a PDU outlet, say), as published
        }
        if (!target.equals(prefix) && !target.startsWith(prefix + "/")) {
          walk.foreignLinks.add(path + " -> " + link);
        } else if (seen.add(target)) {
          queue.addLast(target);
        }
      }
    }
    return walk;
  }

  private static void collectLinks(JsonNode node, List<String> links) {
    if (node.isObject()) {
      node.properties()
          .forEach(
              e -> {
                if (e.getKey().equals("@odata.id") && e.getValue().isTextual()) {
                  links.add(e.getValue().asText());
                } else {
                  collectLinks(e.getValue(), links);
                }
              });
    } else if (node.isArray()) {
      node.forEach(n -> collectLinks(n, links));
    }
  }

  private static Got get(String path) throws Exception {
    String auth =
        Base64.getEncoder().encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    HttpResponse<byte[]> response =
        http.send(
            HttpRequest.newBuilder(URI.create(fleet.baseUrl() + path))
                .header("Authorization", "Basic " + auth)
                .header("OData-Version", "4.0")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    return new Got(
        response.statusCode(),
        response.statusCode() == 200 ? JSON.readTree(response.body()) : null);
  }
}
