package io.bamel.power.sim;

import com.fasterxml.jackson.core.JsonPointer;
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
 * Serves the Redfish resources of every simulated system under {@code /bmc/{id}/redfish/v1}: its
 * {@link SimRedfishTree} (DMTF's published tree, edited by the system's {@link SimProfile}, with
 * its state), sessions (login, logout, 401), the boot override PATCH (which needs {@code If-Match}
 * once an ETag was given, or always where the profile says) and the reset action. A path is served
 * with or without one trailing {@code /}; nothing else is normalised (a doubled {@code //} is not
 * found). Each answer sets how the connection is treated after it (the system's {@link
 * SimConnection}). Every Redfish name it reads or writes comes from {@link SimVocabulary}.
 */
final class RedfishSimHandler implements SimHttpServer.Handler {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SimVocabulary WIRE = SimVocabulary.WIRE;
  private static final SimVocabulary.Headers HEADERS = WIRE.headers();
  private static final SimVocabulary.Errors ERRORS = WIRE.errors();

  private final Map<String, SimulatedSystem> systems;
  private final String atRoot;

  /** Serves every system below {@code /bmc/{id}}. */
  RedfishSimHandler(Map<String, SimulatedSystem> systems) {
    this(systems, null);
  }

  /**
   * Serves every system below {@code /bmc/{id}}, and system {@code atRoot} (when not null) also at
   * the root of the port, as a BMC of its own: {@code /redfish/v1}.
   */
  RedfishSimHandler(Map<String, SimulatedSystem> systems, String atRoot) {
    this.systems = systems;
    this.atRoot = atRoot;
  }

  @Override
  public void handle(SimExchange exchange) throws IOException {
    String path = exchange.path();
    String[] parts = path.split("/", 4); // "", "bmc", id, rest
    boolean rooted = atRoot != null && !(parts.length >= 2 && "bmc".equals(parts[1]));
    SimulatedSystem system =
        rooted ? systems.get(atRoot) : parts.length >= 3 ? systems.get(parts[2]) : null;
    if (system == null || !(rooted || "bmc".equals(parts[1]))) {
      send(exchange, 404, error(ERRORS.missing(), "no such BMC"));
      return;
    }
    exchange.connection(system.config().connection());
    String prefix = rooted ? "" : "/bmc/" + system.id();
    String rest = rooted ? path : parts.length == 4 ? "/" + parts[3] : "/";
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

  private void handle(SimExchange exchange, SimulatedSystem system, String prefix, String path)
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
      exchange.responseHeader(HEADERS.retryAfter(), "1");
      send(exchange, failure, error(ERRORS.unavailable(), "injected fault"));
      return;
    }
    if (!WIRE.odataVersion().equals(exchange.header(HEADERS.odataVersion()))) {
      system.record(SimOperation.NO_ODATA_VERSION);
    }
    String method = exchange.method();
    SimSystemConfig config = system.config();
    SimRedfishTree tree = new SimRedfishTree(system, prefix);

    if (path.equals(WIRE.versionsPath()) && method.equals("GET")) {
      send(exchange, 200, tree.versions());
      return;
    }
    if (path.equals(tree.rootPath()) && method.equals("GET")) {
      system.record(SimOperation.SERVICE_ROOT);
      send(exchange, 200, tree.get(path).orElseThrow().body());
      return;
    }
    if (!path.startsWith(tree.rootPath() + "/")) {
      send(exchange, 404, error(ERRORS.missing(), method + " " + path));
      return;
    }
    String sessions = tree.sessionsPath();
    if (path.equals(sessions) && method.equals("POST") && config.sessionService()) {
      login(exchange, system, tree);
      return;
    }
    if (!authorized(exchange, system)) {
      system.record(SimOperation.UNAUTHORIZED);
      if (config.basicAuth()) {
        exchange.responseHeader(HEADERS.authenticate(), "Basic realm=\"bmc\"");
      }
      send(exchange, 401, error(ERRORS.noValidSession(), "authentication required"));
      return;
    }
    String sys = tree.systemPath();
    if (path.equals(sys) && method.equals("GET")) {
      system.record(SimOperation.SYSTEM);
      String etag = system.giveEtag();
      if (etag != null && config.profile().etags() == SimProfile.Etags.HEADER_AND_BODY) {
        exchange.responseHeader(HEADERS.etag(), etag);
      }
      send(exchange, 200, tree.computerSystem(etag, redfishState(system)));
      return;
    }
    if (path.equals(sys) && method.equals("PATCH")) {
      patchBoot(exchange, system, tree);
      dropAfterAction(exchange, system);
      return;
    }
    if (path.equals(tree.resetTarget()) && method.equals("POST")) {
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
    send(exchange, 404, error(ERRORS.missing(), method + " " + path));
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
    SimVocabulary.Request request = WIRE.request();
    Optional<String> token =
        body == null
            ? Optional.empty()
            : system.login(
                body.at(request.userName()).asText(""), body.at(request.password()).asText(""));
    if (token.isEmpty()) {
      system.record(SimOperation.UNAUTHORIZED);
      send(exchange, 401, error(ERRORS.loginFailed(), "login failed"));
      return;
    }
    system.record(SimOperation.LOGIN);
    String id = SimulatedSystem.sessionIdOf(token.get());
    if (!system.config().profile().loginWithoutToken()) {
      exchange.responseHeader(HEADERS.token(), token.get());
    }
    exchange.responseHeader(HEADERS.location(), tree.sessionLink(id));
    send(exchange, 201, tree.session(id));
  }

  private static boolean authorized(SimExchange exchange, SimulatedSystem system) {
    String token = exchange.header(HEADERS.token());
    if (token != null) {
      return system.validSession(token);
    }
    String authorization = exchange.header(HEADERS.authorization());
    String scheme = WIRE.basicScheme();
    if (authorization != null && authorization.regionMatches(true, 0, scheme, 0, scheme.length())) {
      String decoded;
      try {
        decoded =
            new String(
                Base64.getDecoder().decode(authorization.substring(scheme.length()).trim()),
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
    BmcPowerState state = stale != null ? stale : system.powerState();
    return WIRE.powerStates().getOrDefault(state, WIRE.powerStates().get(BmcPowerState.OFF));
  }

  private static void patchBoot(SimExchange exchange, SimulatedSystem system, SimRedfishTree tree)
      throws IOException {
    if (busy(exchange, system)) {
      return;
    }
    JsonNode body = readBody(exchange);
    if (body == null || !body.at(WIRE.request().boot()).isObject()) {
      send(exchange, 400, error(ERRORS.malformed(), "expected a boot object"));
      return;
    }
    SimVocabulary.State state = WIRE.state();
    Optional<SimulatedSystem.PatchProblem> problem =
        system.patchBoot(
            text(body, state.bootTarget()),
            text(body, state.bootEnabled()),
            text(body, state.bootMode()),
            exchange.header(HEADERS.ifMatch()),
            system.faults().takeEtagChange());
    if (problem.isEmpty()) {
      system.record(SimOperation.BOOT_OVERRIDE);
      send(exchange, 204, null);
      return;
    }
    switch (problem.get()) {
      case PRECONDITION_MISSING -> {
        system.record(SimOperation.PRECONDITION_MISSING);
        send(exchange, 428, error(ERRORS.preconditionRequired(), "If-Match is required"));
      }
      case PRECONDITION_FAILED -> {
        system.record(SimOperation.PRECONDITION_FAILED);
        send(exchange, 412, error(ERRORS.preconditionFailed(), "the ETag does not match"));
      }
      case TARGET, ENABLED, MODE ->
          send(
              exchange,
              400,
              error(ERRORS.notInList(), problem.get().name().toLowerCase(Locale.ROOT)));
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
      exchange.responseHeader(HEADERS.retryAfter(), "1");
      send(exchange, 503, error(ERRORS.unavailable(), "busy"));
    } else {
      send(exchange, 409, error(ERRORS.inUse(), "busy"));
    }
    return true;
  }

  private static void reset(SimExchange exchange, SimulatedSystem system) throws IOException {
    if (busy(exchange, system)) {
      return;
    }
    JsonNode body = readBody(exchange);
    String type = body == null ? null : text(body, WIRE.request().resetType());
    if (type == null) {
      system.record(SimOperation.RESET_REFUSED);
      send(exchange, 400, error(ERRORS.parameterMissing(), "reset type missing"));
      return;
    }
    switch (system.reset(type)) {
      case ACCEPTED -> {
        system.record(SimOperation.RESET);
        send(exchange, 204, null);
      }
      case NOT_ALLOWED -> {
        system.record(SimOperation.RESET_REFUSED);
        send(exchange, 400, error(ERRORS.parameterNotSupported(), type));
      }
      case ALREADY -> {
        system.record(SimOperation.RESET_REFUSED);
        send(
            exchange,
            system.config().alreadyInStateStatus(),
            error(ERRORS.noOperation(), "already in the requested state"));
      }
      case BUSY -> {
        system.record(SimOperation.RESET_REFUSED);
        send(exchange, 409, error(ERRORS.inUse(), "a power change is in progress"));
      }
    }
  }

  private static String text(JsonNode node, JsonPointer pointer) {
    JsonNode value = node.at(pointer);
    return value.isMissingNode() || value.isNull() ? null : value.asText();
  }

  private static JsonNode readBody(SimExchange exchange) {
    try {
      byte[] bytes = exchange.body();
      return bytes.length == 0 ? null : JSON.readTree(bytes);
    } catch (IOException e) {
      return null;
    }
  }

  /** A Redfish error body (DSP0266 {@code error} object with a message id). */
  private static byte[] error(String code, String message) throws JsonProcessingException {
    ObjectNode node = JSON.createObjectNode();
    ObjectNode error = node.putObject("error");
    error.put("code", code);
    error.put("message", message);
    return JSON.writeValueAsBytes(node);
  }

  private static void send(SimExchange exchange, int status, byte[] body) {
    exchange.responseHeader(HEADERS.odataVersion(), WIRE.odataVersion());
    exchange.send(status, body, HEADERS.contentType(), WIRE.jsonMediaType());
  }
}
