package io.bamel.power.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.bamel.power.PowerState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Serves the Redfish resources of every simulated system under {@code /bmc/{id}/redfish/v1}:
 * service root, SessionService, Systems, the ComputerSystem (with its ETag) with its Reset action
 * and boot override (which needs {@code If-Match} once an ETag was given), Ethernet interfaces and
 * the chassis Power resource.
 */
final class RedfishSimHandler implements HttpHandler {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SYSTEM_ID = "1";
  private static final String SYSTEM1 = "/redfish/v1/Systems/1";

  private final Map<String, SimulatedSystem> systems;

  RedfishSimHandler(Map<String, SimulatedSystem> systems) {
    this.systems = systems;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String[] parts = path.split("/", 4); // "", "bmc", id, rest
      SimulatedSystem system = parts.length >= 3 ? systems.get(parts[2]) : null;
      if (system == null || !"bmc".equals(parts[1])) {
        send(exchange, 404, error("Base.1.8.ResourceMissingAtURI", "no such BMC"));
        return;
      }
      String prefix = "/bmc/" + system.id();
      String rest = parts.length == 4 ? "/" + parts[3] : "/";
      while (rest.length() > 1 && rest.endsWith("/")) {
        rest = rest.substring(0, rest.length() - 1);
      }
      handle(exchange, system, prefix, rest);
    }
  }

  private void handle(HttpExchange exchange, SimulatedSystem system, String prefix, String rest)
      throws IOException {
    long latency = system.faults().latency().toMillis();
    if (latency > 0) {
      try {
        Thread.sleep(latency);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    if (system.faults().takeDrop()) {
      system.record(SimOperation.FAULT);
      return; // closing the exchange unanswered drops the connection
    }
    int failure = system.faults().takeFailure();
    if (failure != 0) {
      system.record(SimOperation.FAULT);
      exchange.getResponseHeaders().set("Retry-After", "1");
      send(exchange, failure, error("Base.1.8.ServiceTemporarilyUnavailable", "injected fault"));
      return;
    }
    if (!"4.0".equals(exchange.getRequestHeaders().getFirst("OData-Version"))) {
      system.record(SimOperation.NO_ODATA_VERSION);
    }
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    String root = prefix + "/redfish/v1";
    SimSystemConfig config = system.config();

    if (rest.equals("/redfish/v1") && method.equals("GET")) {
      system.record(SimOperation.SERVICE_ROOT);
      send(exchange, 200, serviceRoot(root, config));
      return;
    }
    if (rest.equals("/redfish/v1/SessionService/Sessions")
        && method.equals("POST")
        && config.sessionService()) {
      login(exchange, system, root);
      return;
    }
    if (!authorized(exchange, system)) {
      system.record(SimOperation.UNAUTHORIZED);
      if (config.basicAuth()) {
        exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"bmc\"");
      }
      send(exchange, 401, error("Base.1.8.NoValidSession", "authentication required"));
      return;
    }
    switch (method + " " + rest) {
      case "GET /redfish/v1/SessionService" -> sessionService(exchange, root, config);
      case "GET /redfish/v1/Systems" -> {
        system.record(SimOperation.SYSTEMS);
        ObjectNode body = resource(root + "/Systems", "#ComputerSystemCollection");
        body.put("Members@odata.count", 1);
        body.putArray("Members").addObject().put("@odata.id", root + "/Systems/" + SYSTEM_ID);
        send(exchange, 200, body);
      }
      case "GET " + SYSTEM1 -> {
        system.record(SimOperation.SYSTEM);
        String etag = system.giveEtag();
        if (etag != null) {
          exchange.getResponseHeaders().set("ETag", etag);
        }
        send(exchange, 200, computerSystem(system, root, etag));
      }
      case "PATCH " + SYSTEM1 -> patchBoot(exchange, system);
      case "POST " + SYSTEM1 + "/Actions/ComputerSystem.Reset" -> reset(exchange, system);
      case "GET " + SYSTEM1 + "/EthernetInterfaces" -> {
        system.record(SimOperation.ETHERNET);
        ObjectNode body =
            resource(root + "/Systems/1/EthernetInterfaces", "#EthernetInterfaceCollection");
        body.putArray("Members")
            .addObject()
            .put("@odata.id", root + "/Systems/1/EthernetInterfaces/1");
        send(exchange, 200, body);
      }
      case "GET " + SYSTEM1 + "/EthernetInterfaces/1" -> {
        system.record(SimOperation.ETHERNET);
        ObjectNode body = resource(root + "/Systems/1/EthernetInterfaces/1", "#EthernetInterface");
        body.put("MACAddress", mac(system.id()));
        send(exchange, 200, body);
      }
      case "GET /redfish/v1/Chassis/1/Power" -> {
        system.record(SimOperation.POWER);
        ObjectNode body = resource(root + "/Chassis/1/Power", "#Power");
        body.putArray("PowerControl").addObject().put("PowerConsumedWatts", system.watts());
        send(exchange, 200, body);
      }
      default -> {
        if (method.equals("DELETE")
            && rest.startsWith("/redfish/v1/SessionService/Sessions/")
            && system.logout(rest.substring(rest.lastIndexOf('/') + 1))) {
          system.record(SimOperation.LOGOUT);
          send(exchange, 204, null);
        } else {
          send(exchange, 404, error("Base.1.8.ResourceMissingAtURI", method + " " + rest));
        }
      }
    }
  }

  private static ObjectNode serviceRoot(String root, SimSystemConfig config) {
    ObjectNode body = resource(root, "#ServiceRoot.v1_11_0.ServiceRoot");
    body.put("RedfishVersion", "1.15.0");
    body.putObject("Systems").put("@odata.id", root + "/Systems");
    body.putObject("Chassis").put("@odata.id", root + "/Chassis");
    if (config.sessionService()) {
      body.putObject("SessionService").put("@odata.id", root + "/SessionService");
      body.putObject("Links")
          .putObject("Sessions")
          .put("@odata.id", root + "/SessionService/Sessions");
    }
    return body;
  }

  private static void sessionService(HttpExchange exchange, String root, SimSystemConfig config)
      throws IOException {
    ObjectNode body = resource(root + "/SessionService", "#SessionService.v1_1_8.SessionService");
    body.put("ServiceEnabled", config.sessionService());
    body.put("SessionTimeout", config.sessionTimeout().toSeconds());
    body.putObject("Sessions").put("@odata.id", root + "/SessionService/Sessions");
    send(exchange, 200, body);
  }

  private static void login(HttpExchange exchange, SimulatedSystem system, String root)
      throws IOException {
    JsonNode body = readBody(exchange);
    Optional<String> token =
        body == null
            ? Optional.empty()
            : system.login(body.path("UserName").asText(""), body.path("Password").asText(""));
    if (token.isEmpty()) {
      system.record(SimOperation.UNAUTHORIZED);
      send(exchange, 401, error("Base.1.8.InsufficientPrivilege", "login failed"));
      return;
    }
    system.record(SimOperation.LOGIN);
    String id = SimulatedSystem.sessionIdOf(token.get());
    String location = root + "/SessionService/Sessions/" + id;
    exchange.getResponseHeaders().set("X-Auth-Token", token.get());
    exchange.getResponseHeaders().set("Location", location);
    ObjectNode session = resource(location, "#Session.v1_3_0.Session");
    session.put("Id", id);
    session.put("UserName", system.config().username());
    send(exchange, 201, session);
  }

  private static boolean authorized(HttpExchange exchange, SimulatedSystem system) {
    String token = exchange.getRequestHeaders().getFirst("X-Auth-Token");
    if (token != null) {
      return system.validSession(token);
    }
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    if (authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
      String decoded;
      try {
        decoded =
            new String(
                Base64.getDecoder().decode(authorization.substring(6).trim()),
                StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return false;
      }
      int colon = decoded.indexOf(':');
      return colon > 0
          && system.validBasic(decoded.substring(0, colon), decoded.substring(colon + 1));
    }
    return false;
  }

  private static ObjectNode computerSystem(SimulatedSystem system, String root, String etag) {
    String self = root + "/Systems/" + SYSTEM_ID;
    ObjectNode body = resource(self, "#ComputerSystem.v1_20_0.ComputerSystem");
    body.put("Id", SYSTEM_ID);
    body.put("Name", system.id());
    body.put("Manufacturer", "bamel");
    body.put("Model", "Simulated Server S1");
    body.put("SerialNumber", "SIM-" + system.id().toUpperCase(Locale.ROOT));
    body.put("PowerState", redfishState(system));
    if (etag != null) {
      body.put("@odata.etag", etag);
    }
    ObjectNode processors = body.putObject("ProcessorSummary");
    processors.put("Count", 2);
    processors.put("Model", "Simulated CPU 32-Core");
    body.putObject("MemorySummary").put("TotalSystemMemoryGiB", 256);
    java.util.List<String> boot = system.bootOverride();
    ObjectNode bootNode = body.putObject("Boot");
    bootNode.put("BootSourceOverrideTarget", boot.get(0));
    bootNode.put("BootSourceOverrideEnabled", boot.get(1));
    ArrayNode targets = bootNode.putArray("BootSourceOverrideTarget@Redfish.AllowableValues");
    SimulatedSystem.BOOT_TARGETS.forEach(targets::add);
    body.putObject("EthernetInterfaces").put("@odata.id", self + "/EthernetInterfaces");
    body.putObject("Links").putArray("Chassis").addObject().put("@odata.id", root + "/Chassis/1");
    ObjectNode reset = body.putObject("Actions").putObject("#ComputerSystem.Reset");
    reset.put("target", self + "/Actions/ComputerSystem.Reset");
    ArrayNode allowed = reset.putArray("ResetType@Redfish.AllowableValues");
    system.config().allowableResetTypes().forEach(allowed::add);
    return body;
  }

  private static String redfishState(SimulatedSystem system) {
    PowerState stale = system.faults().takeStale();
    return switch (stale != null ? stale : system.powerState()) {
      case ON -> "On";
      case POWERING_ON -> "PoweringOn";
      case POWERING_OFF -> "PoweringOff";
      default -> "Off";
    };
  }

  private static void patchBoot(HttpExchange exchange, SimulatedSystem system) throws IOException {
    if (busy(exchange, system)) {
      return;
    }
    JsonNode body = readBody(exchange);
    JsonNode boot = body == null ? null : body.get("Boot");
    if (boot == null || !boot.isObject()) {
      send(exchange, 400, error("Base.1.8.MalformedJSON", "expected a Boot object"));
      return;
    }
    Optional<SimulatedSystem.PatchProblem> problem =
        system.patchBoot(
            text(boot, "BootSourceOverrideTarget"),
            text(boot, "BootSourceOverrideEnabled"),
            exchange.getRequestHeaders().getFirst("If-Match"),
            system.faults().takeEtagChange());
    if (problem.isEmpty()) {
      system.record(SimOperation.BOOT_OVERRIDE);
      send(exchange, 204, null);
      return;
    }
    switch (problem.get()) {
      case PRECONDITION_MISSING -> {
        system.record(SimOperation.PRECONDITION_MISSING);
        send(exchange, 428, error("Base.1.8.PreconditionRequired", "If-Match is required"));
      }
      case PRECONDITION_FAILED -> {
        system.record(SimOperation.PRECONDITION_FAILED);
        send(exchange, 412, error("Base.1.8.PreconditionFailed", "the ETag does not match"));
      }
      case TARGET, ENABLED ->
          send(
              exchange,
              400,
              error(
                  "Base.1.8.PropertyValueNotInList",
                  problem.get().name().toLowerCase(Locale.ROOT)));
    }
  }

  /** Answers an action with an injected busy status (409 or 503); whether it did. */
  private static boolean busy(HttpExchange exchange, SimulatedSystem system) throws IOException {
    int status = system.faults().takeBusy();
    if (status == 0) {
      return false;
    }
    system.record(SimOperation.FAULT);
    if (status == 503) {
      exchange.getResponseHeaders().set("Retry-After", "1");
      send(exchange, 503, error("Base.1.8.ServiceTemporarilyUnavailable", "busy"));
    } else {
      send(exchange, 409, error("Base.1.8.ResourceInUse", "busy"));
    }
    return true;
  }

  private static void reset(HttpExchange exchange, SimulatedSystem system) throws IOException {
    if (busy(exchange, system)) {
      return;
    }
    JsonNode body = readBody(exchange);
    String type = body == null ? null : text(body, "ResetType");
    if (type == null) {
      system.record(SimOperation.RESET_REFUSED);
      send(exchange, 400, error("Base.1.8.ActionParameterMissing", "ResetType missing"));
      return;
    }
    switch (system.reset(type)) {
      case ACCEPTED -> {
        system.record(SimOperation.RESET);
        send(exchange, 204, null);
      }
      case NOT_ALLOWED -> {
        system.record(SimOperation.RESET_REFUSED);
        send(exchange, 400, error("Base.1.8.ActionParameterNotSupported", type));
      }
      case ALREADY -> {
        system.record(SimOperation.RESET_REFUSED);
        send(
            exchange,
            system.config().alreadyInStateStatus(),
            error("Base.1.8.NoOperation", "already in the requested state"));
      }
      case BUSY -> {
        system.record(SimOperation.RESET_REFUSED);
        send(exchange, 409, error("Base.1.8.ResourceInUse", "a power change is in progress"));
      }
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static JsonNode readBody(HttpExchange exchange) {
    try {
      byte[] bytes = exchange.getRequestBody().readAllBytes();
      return bytes.length == 0 ? null : JSON.readTree(bytes);
    } catch (IOException e) {
      return null;
    }
  }

  static String mac(String id) {
    int h = id.hashCode();
    return String.format(
        Locale.ROOT, "52:54:00:%02x:%02x:%02x", (h >> 16) & 0xff, (h >> 8) & 0xff, h & 0xff);
  }

  private static ObjectNode resource(String id, String type) {
    ObjectNode node = JSON.createObjectNode();
    node.put("@odata.id", id);
    node.put("@odata.type", type);
    return node;
  }

  private static ObjectNode error(String code, String message) {
    ObjectNode node = JSON.createObjectNode();
    ObjectNode error = node.putObject("error");
    error.put("code", code);
    error.put("message", message);
    return node;
  }

  private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
    exchange.getResponseHeaders().set("OData-Version", "4.0");
    if (body == null) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
