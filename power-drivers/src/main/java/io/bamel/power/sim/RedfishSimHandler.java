package io.bamel.power.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.power.BmcPowerState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Serves the Redfish resources of every simulated system under {@code /bmc/{id}/redfish/v1}, each
 * shaped by its system's {@link SimProfile}: service root, SessionService and sessions, Systems,
 * the ComputerSystem (with its ETag) with its Reset action (and ActionInfo) and boot override
 * (which needs {@code If-Match} once an ETag was given, or always where the profile says), and the
 * read-only resources of {@link SimRedfishTree}. A path is served with or without one trailing
 * {@code /}; nothing else is normalised (a doubled {@code //} is not found). Each answer sets how
 * the connection is treated after it (the system's {@link SimConnection}).
 */
final class RedfishSimHandler implements SimHttpServer.Handler {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROOT = "/redfish/v1";

  private final Map<String, SimulatedSystem> systems;

  RedfishSimHandler(Map<String, SimulatedSystem> systems) {
    this.systems = systems;
  }

  @Override
  public void handle(SimExchange exchange) throws IOException {
    String path = exchange.path();
    String[] parts = path.split("/", 4); // "", "bmc", id, rest
    SimulatedSystem system = parts.length >= 3 ? systems.get(parts[2]) : null;
    if (system == null || !"bmc".equals(parts[1])) {
      send(exchange, 404, error("Base.1.8.ResourceMissingAtURI", "no such BMC"));
      return;
    }
    exchange.connection(system.config().connection());
    String prefix = "/bmc/" + system.id();
    String rest = parts.length == 4 ? "/" + parts[3] : "/";
    if (rest.length() > 1 && rest.endsWith("/")) {
      rest = rest.substring(0, rest.length() - 1);
    }
    system.requestStarted();
    try {
      handle(exchange, system, prefix, rest);
    } finally {
      system.requestEnded();
    }
  }

  private void handle(SimExchange exchange, SimulatedSystem system, String prefix, String rest)
      throws IOException {
    long latency = system.faults().latency().toMillis();
    if (latency > 0) {
      try {
        Thread.sleep(latency);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        exchange.drop();
        return;
      }
    }
    if (system.faults().takeDrop()) {
      system.record(SimOperation.FAULT);
      exchange.drop(); // closing the connection unanswered
      return;
    }
    int failure = system.faults().takeFailure();
    if (failure != 0) {
      system.record(SimOperation.FAULT);
      exchange.responseHeader("Retry-After", "1");
      send(exchange, failure, error("Base.1.8.ServiceTemporarilyUnavailable", "injected fault"));
      return;
    }
    if (!"4.0".equals(exchange.header("OData-Version"))) {
      system.record(SimOperation.NO_ODATA_VERSION);
    }
    String method = exchange.method();
    SimSystemConfig config = system.config();
    SimRedfishTree tree = new SimRedfishTree(system, prefix + ROOT);

    if (rest.equals(ROOT) && method.equals("GET")) {
      system.record(SimOperation.SERVICE_ROOT);
      send(exchange, 200, tree.serviceRoot(config.sessionService()));
      return;
    }
    if (!rest.startsWith(ROOT + "/")) {
      send(exchange, 404, error("Base.1.8.ResourceMissingAtURI", method + " " + rest));
      return;
    }
    String path = rest.substring(ROOT.length());
    String sessions = tree.sessionsPath();
    if (path.equals(sessions) && method.equals("POST") && config.sessionService()) {
      login(exchange, system, tree);
      return;
    }
    if (!authorized(exchange, system)) {
      system.record(SimOperation.UNAUTHORIZED);
      if (config.basicAuth()) {
        exchange.responseHeader("WWW-Authenticate", "Basic realm=\"bmc\"");
      }
      send(exchange, 401, error("Base.1.8.NoValidSession", "authentication required"));
      return;
    }
    String sys = tree.systemPath();
    if (path.equals(sys) && method.equals("GET")) {
      system.record(SimOperation.SYSTEM);
      String etag = system.giveEtag();
      if (etag != null && config.profile().etags() == SimProfile.Etags.HEADER_AND_BODY) {
        exchange.responseHeader("ETag", etag);
      }
      send(exchange, 200, tree.computerSystem(etag, redfishState(system)));
      return;
    }
    if (path.equals(sys) && method.equals("PATCH")) {
      patchBoot(exchange, system);
      dropAfterAction(exchange, system);
      return;
    }
    if (path.equals(sys + "/Actions/ComputerSystem.Reset") && method.equals("POST")) {
      reset(exchange, system);
      dropAfterAction(exchange, system);
      return;
    }
    if (method.equals("DELETE")
        && path.startsWith(sessions + "/")
        && system.logout(path.substring(path.lastIndexOf('/') + 1))) {
      system.record(SimOperation.LOGOUT);
      send(exchange, 204, null);
      return;
    }
    if (method.equals("GET")) {
      Optional<SimRedfishTree.Served> served = tree.get(path);
      if (served.isPresent()) {
        if (served.get().operation() != null) {
          system.record(served.get().operation());
        }
        send(exchange, 200, served.get().body());
        return;
      }
    }
    send(exchange, 404, error("Base.1.8.ResourceMissingAtURI", method + " " + rest));
  }

  /** An injected fault: the action was carried out, and the answer is never sent. */
  private static void dropAfterAction(SimExchange exchange, SimulatedSystem system) {
    if (system.faults().takeDropAfterAction()) {
      system.record(SimOperation.FAULT);
      exchange.drop();
    }
  }

  private static void login(SimExchange exchange, SimulatedSystem system, SimRedfishTree tree)
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
    String location = tree.id(tree.sessionsPath() + "/" + id);
    if (!system.config().profile().loginWithoutToken()) {
      exchange.responseHeader("X-Auth-Token", token.get());
    }
    exchange.responseHeader("Location", location);
    ObjectNode session = JSON.createObjectNode();
    session.put("@odata.id", location);
    session.put("@odata.type", "#Session.v1_3_0.Session");
    session.put("Id", id);
    session.put("UserName", system.config().username());
    send(exchange, 201, session);
  }

  private static boolean authorized(SimExchange exchange, SimulatedSystem system) {
    String token = exchange.header("X-Auth-Token");
    if (token != null) {
      return system.validSession(token);
    }
    String authorization = exchange.header("Authorization");
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

  private static String redfishState(SimulatedSystem system) {
    BmcPowerState stale = system.faults().takeStale();
    return switch (stale != null ? stale : system.powerState()) {
      case ON -> "On";
      case POWERING_ON -> "PoweringOn";
      case POWERING_OFF -> "PoweringOff";
      default -> "Off";
    };
  }

  private static void patchBoot(SimExchange exchange, SimulatedSystem system) throws IOException {
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
            text(boot, "BootSourceOverrideMode"),
            exchange.header("If-Match"),
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
      case TARGET, ENABLED, MODE ->
          send(
              exchange,
              400,
              error(
                  "Base.1.8.PropertyValueNotInList",
                  problem.get().name().toLowerCase(Locale.ROOT)));
    }
  }

  /** Answers an action with an injected busy status (409 or 503); whether it did. */
  private static boolean busy(SimExchange exchange, SimulatedSystem system) throws IOException {
    int status = system.faults().takeBusy();
    if (status == 0) {
      return false;
    }
    system.record(SimOperation.FAULT);
    if (status == 503) {
      exchange.responseHeader("Retry-After", "1");
      send(exchange, 503, error("Base.1.8.ServiceTemporarilyUnavailable", "busy"));
    } else {
      send(exchange, 409, error("Base.1.8.ResourceInUse", "busy"));
    }
    return true;
  }

  private static void reset(SimExchange exchange, SimulatedSystem system) throws IOException {
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

  private static JsonNode readBody(SimExchange exchange) {
    try {
      byte[] bytes = exchange.body();
      return bytes.length == 0 ? null : JSON.readTree(bytes);
    } catch (IOException e) {
      return null;
    }
  }

  private static ObjectNode error(String code, String message) {
    ObjectNode node = JSON.createObjectNode();
    ObjectNode error = node.putObject("error");
    error.put("code", code);
    error.put("message", message);
    return node;
  }

  private static void send(SimExchange exchange, int status, JsonNode body)
      throws JsonProcessingException {
    exchange.responseHeader("OData-Version", "4.0");
    exchange.send(
        status,
        body == null ? null : JSON.writeValueAsString(body),
        "application/json; charset=utf-8");
  }
}
