package io.bamel.power.redfish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.bamel.power.Deadline;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import io.bamel.power.credentials.CredentialSource;
import io.bamel.power.credentials.Credentials;
import io.bamel.power.credentials.Destination;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Redfish service as seen with one credential: discovers the service root's SessionService and
 * the ComputerSystem (following the root's {@code Systems} link), logs in once and reuses the
 * session, renews it once on a 401, and falls back to Basic auth where there is no SessionService
 * or where a login succeeds without giving an {@code X-Auth-Token} (iDRAC 8's {@code
 * /redfish/v1/Sessions}; the session it created anyway is deleted). What it learns per session is
 * kept in a {@link SessionCache}, replaced on each new login. Requests go through {@link
 * RedfishHttp}. Thread-safe.
 *
 * <p>The client it is given is pinned to the addresses in its {@link Destination}; the credential
 * is read (and its allow-list checked against that destination) every time it is about to be sent,
 * and no request leaves for another origin than the service root's, whatever links the BMC answers
 * with.
 */
final class RedfishConnection {

  private static final Logger LOG = LoggerFactory.getLogger(RedfishConnection.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final MediaType JSON_TYPE = MediaType.get("application/json; charset=utf-8");

  /** A live session: its token and the URI to log out with. */
  private record Session(String token, String location) {}

  private final RedfishHttp http;
  private final RedfishAddress address;
  private final String credentialsName;
  private final CredentialSource credentialSource;
  private final String origin;
  private final HttpUrl originUrl;
  private final Destination destination;

  private final ReentrantLock discoveryLock = new ReentrantLock();
  private volatile boolean rootKnown;
  private volatile String sessionsUri;
  private volatile String systemsUri;
  private volatile String systemUri;

  private final ReentrantLock loginLock = new ReentrantLock();
  private volatile Session session;
  private volatile boolean loggedInBefore;
  private volatile SessionCache cache = new SessionCache();

  RedfishConnection(
      RedfishHttp http,
      RedfishAddress address,
      String credentialsName,
      CredentialSource credentialSource,
      Destination destination) {
    this.http = http;
    this.address = address;
    this.credentialsName = credentialsName;
    this.credentialSource = credentialSource;
    this.destination = destination;
    URI root = URI.create(address.serviceRoot());
    this.origin = root.getScheme() + "://" + root.getRawAuthority();
    this.originUrl = HttpUrl.get(address.serviceRoot());
    this.systemUri = address.systemUri().orElse(null);
  }

  /** The ComputerSystem URI, discovering it if needed. */
  String systemUri(Deadline deadline) throws PowerException {
    String known = systemUri;
    if (known != null) {
      return known;
    }
    discoveryLock.lock();
    try {
      if (systemUri == null) {
        systemUri = findSystem(deadline);
      }
      return systemUri;
    } finally {
      discoveryLock.unlock();
    }
  }

  /** Resolves a Redfish link ({@code /redfish/v1/...}) against the service's origin. */
  String resolve(String link) {
    return link.startsWith("/") ? origin + link : link;
  }

  /** What was learned in the current session. */
  SessionCache cache() {
    return cache;
  }

  /** The HTTP layer (for tests and logs). */
  RedfishHttp http() {
    return http;
  }

  /** Where this connection sends requests: the host and the addresses it is pinned to. */
  Destination destination() {
    return destination;
  }

  /** Whether a session is in use (for tests and logs). */
  boolean hasSession() {
    return session != null;
  }

  /**
   * Sends an authenticated request; renews the session once when answered 401.
   *
   * @throws TerminalPowerException {@link PowerException.Reason#BAD_CREDENTIALS} when the
   *     credentials are refused
   */
  RedfishResponse send(
      String method, String url, JsonNode body, Map<String, String> headers, Deadline deadline)
      throws PowerException {
    discover(deadline);
    Session used = sessionsUri == null ? null : session(deadline);
    RedfishResponse response = exchange(method, url, body, headers, used, deadline);
    if (response.code() == 401 && used != null) {
      LOG.debug("session at {} refused (expired?); logging in again", address.serviceRoot());
      invalidate(used);
      used = session(deadline);
      response = exchange(method, url, body, headers, used, deadline);
    }
    if (response.code() == 401 || response.code() == 403 && used == null) {
      throw badCredentials();
    }
    return response;
  }

  /** Logs the session out, if any; never throws. */
  void close(Deadline deadline) {
    Session current = session;
    session = null;
    if (current == null || current.location() == null) {
      http.close();
      return;
    }
    try {
      Request request = base(current.location(), current).delete().build();
      execute(request, deadline);
    } catch (PowerException | RuntimeException e) {
      LOG.debug("logout at {} failed: {}", address.serviceRoot(), e.getMessage());
    } finally {
      http.close();
    }
  }

  private void discover(Deadline deadline) throws PowerException {
    if (rootKnown) {
      return;
    }
    discoveryLock.lock();
    try {
      if (rootKnown) {
        return;
      }
      RedfishResponse root = exchange("GET", address.serviceRoot(), null, Map.of(), null, deadline);
      if (root.code() == 404) {
        throw new TerminalPowerException(
            PowerException.Reason.NOT_FOUND, "no Redfish service root at " + address.serviceRoot());
      }
      if (root.code() >= 500) {
        throw new TransientPowerException(
            PowerException.Reason.BMC_ERROR,
            "service root " + address.serviceRoot() + " answered " + root.errorMessage());
      }
      if (root.ok()) {
        String sessions =
            root.body()
                .path(RedfishNames.LINKS)
                .path(RedfishNames.SESSIONS)
                .path(RedfishNames.ODATA_ID)
                .asText("");
        if (sessions.isEmpty() && root.body().has(RedfishNames.SESSION_SERVICE)) {
          sessions = address.serviceRoot() + RedfishNames.SESSIONS_PATH;
        }
        sessionsUri = sessions.isEmpty() ? null : resolve(sessions);
        String systems =
            root.body().path(RedfishNames.SYSTEMS).path(RedfishNames.ODATA_ID).asText("");
        systemsUri = systems.isEmpty() ? null : resolve(systems);
      }
      rootKnown = true;
    } finally {
      discoveryLock.unlock();
    }
  }

  private String findSystem(Deadline deadline) throws PowerException {
    discover(deadline);
    String systems =
        systemsUri != null ? systemsUri : address.serviceRoot() + RedfishNames.SYSTEMS_PATH;
    RedfishResponse collection = send("GET", systems, null, Map.of(), deadline);
    if (!collection.ok()) {
      throw RedfishDriver.failure("GET " + systems, collection);
    }
    List<String> members = new ArrayList<>();
    collection
        .body()
        .path(RedfishNames.MEMBERS)
        .forEach(m -> members.add(m.path(RedfishNames.ODATA_ID).asText()));
    if (members.isEmpty()) {
      throw new TerminalPowerException(
          PowerException.Reason.NOT_FOUND, "no ComputerSystem at " + systems);
    }
    if (members.size() > 1) {
      throw new TerminalPowerException(
          PowerException.Reason.INVALID_CONFIG,
          systems + " lists " + members.size() + " systems; give the System URI as the address");
    }
    return resolve(members.get(0));
  }

  private Session session(Deadline deadline) throws PowerException {
    Session current = session;
    if (current != null) {
      return current;
    }
    loginLock.lock();
    try {
      if (session != null) {
        return session;
      }
      if (sessionsUri == null) {
        return null;
      }
      Credentials credentials = credentials();
      ObjectNode body = JSON.createObjectNode();
      body.put(RedfishNames.USER_NAME, credentials.user().orElse(""));
      body.put(RedfishNames.PASSWORD, credentials.secret().orElse(""));
      Request request =
          new Request.Builder()
              .url(sessionsUri)
              .header(RedfishNames.HEADER_ODATA_VERSION, RedfishNames.HEADER_ODATA_VERSION_VALUE)
              .header(RedfishNames.HEADER_ACCEPT, RedfishNames.HEADER_ACCEPT_VALUE)
              .post(RequestBody.create(body.toString(), JSON_TYPE))
              .build();
      RedfishHttp.Answer response = execute(request, deadline);
      int code = response.code();
      if (code == 401 || code == 403) {
        throw badCredentials();
      }
      if (code == 404 || code == 405 || code == 501) {
        LOG.debug("no usable SessionService at {}; using Basic auth", address.serviceRoot());
        sessionsUri = null;
        return null;
      }
      if (code < 200 || code >= 300) {
        throw new TransientPowerException(
            PowerException.Reason.BMC_ERROR,
            "session login at " + address.serviceRoot() + " answered HTTP " + code);
      }
      String token = response.header(RedfishNames.HEADER_X_AUTH_TOKEN);
      String location = response.header(RedfishNames.HEADER_LOCATION);
      if (token == null || token.isBlank()) {
        LOG.debug(
            "session login at {} answered {} without X-Auth-Token; using Basic auth",
            address.serviceRoot(),
            code);
        sessionsUri = null;
        if (location != null) {
          deleteWithBasic(resolve(location), deadline);
        }
        return null;
      }
      if (loggedInBefore) {
        cache = new SessionCache(); // a new session: what the old one learned may be stale
      }
      loggedInBefore = true;
      session = new Session(token, location == null ? null : resolve(location));
      return session;
    } finally {
      loginLock.unlock();
    }
  }

  /** Deletes a session a token-less login created anyway (BMCs allow only a few); never throws. */
  private void deleteWithBasic(String location, Deadline deadline) {
    try {
      Request.Builder builder = base(location, null).delete();
      basicAuth(builder);
      execute(builder.build(), deadline);
    } catch (PowerException | RuntimeException e) {
      LOG.debug("deleting the token-less session at {} failed: {}", location, e.getMessage());
    }
  }

  private void invalidate(Session stale) {
    loginLock.lock();
    try {
      if (session == stale) {
        session = null;
      }
    } finally {
      loginLock.unlock();
    }
  }

  private Credentials credentials() throws PowerException {
    if (credentialsName == null) {
      return Credentials.of(null, null);
    }
    return credentialSource.credentials(credentialsName, destination);
  }

  private TerminalPowerException badCredentials() {
    return new TerminalPowerException(
        PowerException.Reason.BAD_CREDENTIALS,
        "the BMC at "
            + address.serviceRoot()
            + " refused the credentials '"
            + credentialsName
            + "'");
  }

  private RedfishResponse exchange(
      String method,
      String url,
      JsonNode body,
      Map<String, String> headers,
      Session auth,
      Deadline deadline)
      throws PowerException {
    Request.Builder builder = base(url, auth);
    if (auth == null && sessionsUri == null && rootKnown) {
      basicAuth(builder);
    }
    headers.forEach(builder::header);
    RequestBody requestBody = body == null ? null : RequestBody.create(body.toString(), JSON_TYPE);
    if (requestBody == null && (method.equals("POST") || method.equals("PATCH"))) {
      requestBody = RequestBody.create("{}", JSON_TYPE);
    }
    builder.method(method, requestBody);
    RedfishHttp.Answer response = execute(builder.build(), deadline);
    String text = response.body();
    JsonNode json = MissingNode.getInstance();
    if (!text.isBlank()) {
      try {
        json = JSON.readTree(text);
      } catch (IOException e) {
        json = MissingNode.getInstance();
      }
    }
    return new RedfishResponse(response.code(), json, response.header(RedfishNames.HEADER_ETAG));
  }

  private void basicAuth(Request.Builder builder) throws PowerException {
    Credentials credentials = credentials();
    if (credentials.user().isPresent()) {
      builder.header(
          RedfishNames.HEADER_AUTHORIZATION,
          okhttp3.Credentials.basic(
              credentials.user().get(),
              credentials.secret().orElse(""),
              java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  private Request.Builder base(String url, Session auth) {
    Request.Builder builder =
        new Request.Builder()
            .url(url)
            .header(RedfishNames.HEADER_ODATA_VERSION, RedfishNames.HEADER_ODATA_VERSION_VALUE)
            .header(RedfishNames.HEADER_ACCEPT, RedfishNames.HEADER_ACCEPT_VALUE);
    if (auth != null) {
      builder.header(RedfishNames.HEADER_X_AUTH_TOKEN, auth.token());
    }
    return builder;
  }

  private RedfishHttp.Answer execute(Request request, Deadline deadline) throws PowerException {
    HttpUrl url = request.url();
    if (!url.scheme().equals(originUrl.scheme())
        || !url.host().equals(originUrl.host())
        || url.port() != originUrl.port()) {
      throw new TerminalPowerException(
          PowerException.Reason.PROTOCOL,
          "the BMC at "
              + address.serviceRoot()
              + " links to another origin ("
              + url.scheme()
              + "://"
              + url.host()
              + ":"
              + url.port()
              + "); bamel only talks to the BMC's own address");
    }
    return http.execute(request, request.method() + " " + request.url(), deadline);
  }
}
