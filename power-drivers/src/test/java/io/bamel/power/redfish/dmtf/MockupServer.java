package io.bamel.power.redfish.dmtf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A static Redfish service for tests: one of DMTF's published mockups ({@link Mockup}) served
 * unchanged over plain HTTP on 127.0.0.1 and a free port, plus only the state a request changes.
 *
 * <ul>
 *   <li>{@code GET /redfish/v1/X} answers {@code mockups/<name>/X/index.json} as published, with
 *       the state below overlaid; 404 with a Redfish error where the mockup has no such resource.
 *   <li>Sessions at the service root's {@code Links.Sessions}: a POST with the right user and
 *       password answers 201 with {@code X-Auth-Token} and {@code Location}; DELETE of that
 *       location logs out. Every request except {@code GET} of the service root needs a live token
 *       or the same user and password as HTTP Basic auth (401 otherwise), as DSP0266 says.
 *   <li>A POST to a ComputerSystem's {@code #ComputerSystem.Reset} target changes that system's
 *       {@code PowerState} as a BMC would (on types to {@code On}, off types to {@code Off}, the
 *       power button toggles, restarts and cycles leave it {@code On}). A {@code ResetType} not in
 *       the action's own {@code ResetType@Redfish.AllowableValues}, or its
 *       {@code @Redfish.ActionInfo} resource's {@code Parameters[].AllowableValues} (or, where the
 *       mockup publishes neither, DMTF's {@code ResetType} enum), is refused with 400 and changes
 *       nothing.
 *   <li>A PATCH of a ComputerSystem's {@code Boot} sets the properties the mockup's {@code Boot}
 *       has; a value outside that property's {@code @Redfish.AllowableValues} (where published,
 *       else the schema's enum) or a property the mockup's {@code Boot} lacks is refused with 400.
 *   <li>Every request is recorded ({@link #requests()}) for tests to check what was sent.
 * </ul>
 *
 * <p>This is the oracle side: its Redfish names are spelled here, independently of the driver's.
 */
public final class MockupServer implements AutoCloseable {

  /** A request as received. */
  public record Recorded(String method, String path, Map<String, String> headers, JsonNode body) {
    /** A header by its name in any case, or null. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ALLOWABLE = "@Redfish.AllowableValues";
  private static final String TOKEN_HEADER = "X-Auth-Token";
  private static final String RESET_ACTION = "#ComputerSystem.Reset";
  private static final String RESET_TYPE = "ResetType";
  private static final String POWER_STATE = "PowerState";
  private static final String BOOT = "Boot";
  private static final String ODATA_ID = "@odata.id";

  private final Mockup mockup;
  private final String user;
  private final String password;
  private final Map<String, ObjectNode> state = new LinkedHashMap<>();
  private final Map<String, String> resetTargets = new LinkedHashMap<>();
  private final Map<String, String> sessions = new ConcurrentHashMap<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final String sessionsUri;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);

  private MockupServer(Mockup mockup, String user, String password) throws IOException {
    this.mockup = mockup;
    this.user = user;
    this.password = password;
    for (Map.Entry<String, JsonNode> e : mockup.resources().entrySet()) {
      JsonNode target = e.getValue().path("Actions").path(RESET_ACTION).path("target");
      if (target.isTextual()) {
        resetTargets.put(target.asText(), e.getKey());
        state.put(e.getKey(), ((ObjectNode) e.getValue()).deepCopy());
      }
    }
    JsonNode root = mockup.get(Mockup.ROOT);
    this.sessionsUri = root.path("Links").path("Sessions").path(ODATA_ID).asText(null);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** Serves {@code mockup} ({@link io.bamel.redfish.dmtf.DmtfFiles#MOCKUPS}) for this user. */
  public static MockupServer start(String mockup, String user, String password) throws IOException {
    return new MockupServer(Mockup.of(mockup), user, password);
  }

  /** The mockup as published (not the served state). */
  public Mockup mockup() {
    return mockup;
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The URL of {@code path} ({@code /redfish/v1/...}). */
  public String url(String path) {
    return baseUrl() + path;
  }

  /** The URIs of the ComputerSystems (those with a reset action), in the mockup's order. */
  public List<String> systems() {
    synchronized (state) {
      return List.copyOf(state.keySet());
    }
  }

  /** A system's resource as served now (its state overlaid), a copy. */
  public JsonNode system(String uri) {
    synchronized (state) {
      ObjectNode system = state.get(uri);
      if (system == null) {
        throw new IllegalArgumentException("no ComputerSystem " + uri + " in " + mockup);
      }
      return system.deepCopy();
    }
  }

  /** Every request received, in order. */
  public List<Recorded> requests() {
    return List.copyOf(requests);
  }

  /** The requests of {@code method} to {@code path}. */
  public List<Recorded> requests(String method, String path) {
    return requests.stream()
        .filter(r -> r.method().equals(method) && r.path().equals(path))
        .toList();
  }

  /** The system URI whose reset target is {@code path}, if it is one. */
  public Optional<String> systemOfResetTarget(String path) {
    return Optional.ofNullable(resetTargets.get(path));
  }

  /** The live session tokens' count. */
  public int sessionCount() {
    return sessions.size();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = normal(exchange.getRequestURI().getPath());
      byte[] raw = exchange.getRequestBody().readAllBytes();
      JsonNode body = null;
      if (raw.length > 0) {
        try {
          body = JSON.readTree(raw);
        } catch (IOException e) {
          requests.add(new Recorded(method, path, headers(exchange), null));
          error(exchange, 400, "MalformedJSON", "The request body is not JSON.");
          return;
        }
      }
      requests.add(new Recorded(method, path, headers(exchange), body));
      if (method.equals("GET") && path.equals(Mockup.ROOT)) {
        json(exchange, 200, mockup.get(Mockup.ROOT));
        return;
      }
      if (method.equals("POST") && path.equals(sessionsUri)) {
        login(exchange, body);
        return;
      }
      if (!authorized(exchange)) {
        error(exchange, 401, "NoValidSession", "There is no valid session established.");
        return;
      }
      switch (method) {
        case "GET" -> get(exchange, path);
        case "POST" -> post(exchange, path, body);
        case "PATCH" -> patch(exchange, path, body);
        case "DELETE" -> delete(exchange, path);
        default -> error(exchange, 405, "OperationNotAllowed", method + " is not allowed.");
      }
    }
  }

  private void get(HttpExchange exchange, String path) throws IOException {
    synchronized (state) {
      ObjectNode system = state.get(path);
      if (system != null) {
        json(exchange, 200, system);
        return;
      }
    }
    JsonNode resource = mockup.get(path);
    if (resource.isMissingNode()) {
      error(exchange, 404, "ResourceNotFound", "No resource " + path + ".");
      return;
    }
    json(exchange, 200, resource);
  }

  private void login(HttpExchange exchange, JsonNode body) throws IOException {
    if (body == null
        || !user.equals(body.path("UserName").asText(null))
        || !password.equals(body.path("Password").asText(null))) {
      error(exchange, 401, "ResourceAtUriUnauthorized", "The credentials were refused.");
      return;
    }
    String id = UUID.randomUUID().toString();
    String token = UUID.randomUUID().toString();
    String location = sessionsUri + "/" + id;
    sessions.put(token, location);
    ObjectNode session = JSON.createObjectNode();
    session.put(ODATA_ID, location).put("Id", id).put("Name", "User Session");
    session.put("UserName", user);
    exchange.getResponseHeaders().add(TOKEN_HEADER, token);
    exchange.getResponseHeaders().add("Location", location);
    json(exchange, 201, session);
  }

  private void delete(HttpExchange exchange, String path) throws IOException {
    if (sessions.values().removeIf(path::equals)) {
      exchange.sendResponseHeaders(204, -1);
      return;
    }
    error(exchange, 405, "OperationNotAllowed", "DELETE is not allowed on " + path + ".");
  }

  private boolean authorized(HttpExchange exchange) {
    String token = exchange.getRequestHeaders().getFirst(TOKEN_HEADER);
    if (token != null) {
      return sessions.containsKey(token);
    }
    String basic = exchange.getRequestHeaders().getFirst("Authorization");
    if (basic == null || !basic.startsWith("Basic ")) {
      return false;
    }
    try {
      String decoded =
          new String(Base64.getDecoder().decode(basic.substring(6).trim()), StandardCharsets.UTF_8);
      return decoded.equals(user + ":" + password);
    } catch (IllegalArgumentException notBase64) {
      return false;
    }
  }

  private void post(HttpExchange exchange, String path, JsonNode body) throws IOException {
    String systemUri = resetTargets.get(path);
    if (systemUri == null) {
      error(exchange, mockup.get(path).isMissingNode() ? 404 : 405, "ActionNotSupported", path);
      return;
    }
    if (body == null || !body.isObject() || !body.path(RESET_TYPE).isTextual()) {
      error(
          exchange, 400, "ActionParameterMissing", "The action requires the parameter ResetType.");
      return;
    }
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!name.equals(RESET_TYPE)) {
        error(exchange, 400, "ActionParameterUnknown", "Unknown action parameter " + name + ".");
        return;
      }
    }
    String type = body.path(RESET_TYPE).asText();
    List<String> allowed = allowedResetTypes(systemUri);
    if (!allowed.contains(type)) {
      error(
          exchange,
          400,
          "ActionParameterValueNotInList",
          "The value " + type + " for the parameter ResetType is not in the list " + allowed + ".");
      return;
    }
    synchronized (state) {
      ObjectNode system = state.get(systemUri);
      String now = system.path(POWER_STATE).asText("");
      system.put(POWER_STATE, after(type, now));
    }
    exchange.sendResponseHeaders(204, -1);
  }

  /**
   * The reset types the mockup allows for a system: its inline allowable values, else its
   * ActionInfo resource's, else the schema's enum.
   */
  public List<String> allowedResetTypes(String systemUri) {
    JsonNode action = mockup.get(systemUri).path("Actions").path(RESET_ACTION);
    JsonNode inline = action.path(RESET_TYPE + ALLOWABLE);
    if (inline.isArray()) {
      return strings(inline);
    }
    String info = action.path("@Redfish.ActionInfo").asText("");
    if (!info.isEmpty()) {
      for (JsonNode parameter : mockup.get(info).path("Parameters")) {
        if (RESET_TYPE.equals(parameter.path("Name").asText())) {
          return strings(parameter.path("AllowableValues"));
        }
      }
    }
    return DmtfSchemas.definitionEnum("Resource.json", RESET_TYPE).orElseThrow();
  }

  /** The power state after a reset of {@code type} from {@code now}, as a BMC changes it. */
  private static String after(String type, String now) {
    return switch (type) {
      case "On", "ForceOn" -> "On";
      case "ForceOff", "GracefulShutdown" -> "Off";
      case "PushPowerButton" -> "On".equals(now) ? "Off" : "On";
      case "ForceRestart", "GracefulRestart", "PowerCycle", "FullPowerCycle" -> "On";
      default -> now; // Nmi, Suspend, Pause, Resume: the power stays as it is
    };
  }

  private void patch(HttpExchange exchange, String path, JsonNode body) throws IOException {
    ObjectNode current;
    synchronized (state) {
      current = state.get(path);
    }
    if (current == null) {
      error(exchange, mockup.get(path).isMissingNode() ? 404 : 405, "OperationNotAllowed", path);
      return;
    }
    if (body == null || !body.isObject()) {
      error(exchange, 400, "MalformedJSON", "The request body is not a JSON object.");
      return;
    }
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!name.equals(BOOT)) {
        error(exchange, 400, "PropertyNotWritable", "The property " + name + " is not writable.");
        return;
      }
    }
    JsonNode published = mockup.get(path).path(BOOT);
    JsonNode boot = body.path(BOOT);
    if (!boot.isObject() || !published.isObject()) {
      error(exchange, 400, "PropertyValueTypeError", "Boot must be an object.");
      return;
    }
    String schema = DmtfSchemas.newest("ComputerSystem");
    for (Map.Entry<String, JsonNode> field : boot.properties()) {
      String name = field.getKey();
      if (name.contains("@") || !published.has(name)) {
        error(exchange, 400, "PropertyUnknown", "The property Boot/" + name + " is not known.");
        return;
      }
      if (!field.getValue().isTextual()) {
        error(exchange, 400, "PropertyValueTypeError", "Boot/" + name + " must be a string.");
        return;
      }
      JsonNode listed = published.path(name + ALLOWABLE);
      Optional<List<String>> allowed =
          listed.isArray()
              ? Optional.of(strings(listed))
              : DmtfSchemas.propertyEnum(schema, BOOT, name);
      String value = field.getValue().asText();
      if (allowed.isPresent() && !allowed.get().contains(value)) {
        error(
            exchange,
            400,
            "PropertyValueNotInList",
            "The value " + value + " for Boot/" + name + " is not in the list " + allowed.get());
        return;
      }
    }
    synchronized (state) {
      ObjectNode served = (ObjectNode) state.get(path).path(BOOT);
      boot.properties().forEach(f -> served.set(f.getKey(), f.getValue()));
    }
    exchange.sendResponseHeaders(204, -1);
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  private static Map<String, String> headers(HttpExchange exchange) {
    Map<String, String> headers = new LinkedHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
    return headers;
  }

  private static String normal(String path) {
    String p = path == null || path.isEmpty() ? "/" : path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  private static void json(HttpExchange exchange, int code, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
    exchange.getResponseHeaders().add("OData-Version", "4.0");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** A Redfish error body (DMTF's redfish-error schema) with a Base registry message. */
  private static void error(HttpExchange exchange, int code, String messageId, String message)
      throws IOException {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("code", "Base.1.8." + messageId).put("message", message);
    ObjectNode info = error.putArray("@Message.ExtendedInfo").addObject();
    info.put("MessageId", "Base.1.8." + messageId).put("Message", message);
    info.put("Severity", code >= 500 ? "Critical" : "Warning");
    json(exchange, code, body);
  }
}
