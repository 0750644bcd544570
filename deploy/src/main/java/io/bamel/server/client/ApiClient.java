package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * The bamel REST API over {@link HttpClient} (a GET from a plain {@code http://} server over {@link
 * PlainGet}, which starts faster): JSON requests with the bearer token, answers as {@link
 * JsonNode}, and every failure as a {@link ClientException} whose message names the server and what
 * to do (connection refused, 401, 403, 404, a problem's detail). The token goes only into the
 * {@code Authorization} header, never into a message.
 */
public final class ApiClient {

  /** The API's path prefix. */
  public static final String API = "/api/v1";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final ClientConfig config;
  private HttpClient http;

  /** A client for the configured server. */
  public ApiClient(ClientConfig config) {
    this.config = config;
    if (config.caFile() != null) {
      // A CA file that cannot be read is an error at once, not at the first request.
      this.http = httpClient();
    }
  }

  /**
   * The {@code java.net.http} client, built at its first use: a GET from a plain {@code http://}
   * server does not need it ({@link PlainGet}), and building it and its selector thread is a
   * measurable part of a short command's start-up.
   */
  private HttpClient http() {
    if (http == null) {
      http = httpClient();
    }
    return http;
  }

  private HttpClient httpClient() {
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (config.caFile() != null) {
      b.sslContext(sslContext(config.caFile()));
    } else if ("http".equals(config.server().getScheme())) {
      // Plain HTTP never negotiates TLS; a context that trusts nothing spares the JDK's default
      // one, whose trust store (some 150 certificates) would be parsed at every start.
      b.sslContext(NoTrust.context());
    }
    return b.build();
  }

  /** The configuration this client uses. */
  public ClientConfig config() {
    return config;
  }

  /** GET a JSON document; {@code path} starts with {@code /} (the API prefix included). */
  public JsonNode get(String path) {
    return send("GET", path, null, null);
  }

  /**
   * Sends a request and returns its JSON answer (an empty object for an answer without a body); any
   * status of 300 or more is a {@link ClientException}.
   */
  public JsonNode send(String method, String path, String contentType, String body) {
    byte[] bytes = exchange(method, path, contentType, body);
    if (bytes.length == 0) {
      return JSON.createObjectNode();
    }
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw new ClientException(
          "the server at "
              + config.serverText()
              + " answered "
              + path
              + " with something not JSON");
    }
  }

  /** Sends a request and returns the answer's body if its status is below 300. */
  private byte[] exchange(String method, String path, String contentType, String body) {
    if ("GET".equals(method) && body == null && "http".equals(config.server().getScheme())) {
      return plainGet(path);
    }
    HttpRequest.Builder request = request(path).timeout(TIMEOUT);
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    HttpResponse<byte[]> response;
    try {
      response = http().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientException("interrupted");
    }
    if (response.statusCode() >= 300) {
      throw ApiErrors.of(config, method, path, response.statusCode(), response.body());
    }
    return response.body();
  }

  /** A GET from a plain {@code http://} server, over {@link PlainGet}. */
  private byte[] plainGet(String path) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", "application/json");
    headers.put("User-Agent", "bamel-cli");
    if (config.token() != null) {
      headers.put("Authorization", "Bearer " + config.token());
    }
    PlainGet.Answer answer;
    try {
      answer =
          PlainGet.get(URI.create(config.serverText() + path), headers, CONNECT_TIMEOUT, TIMEOUT);
    } catch (PlainGet.ConnectFailure e) {
      IOException cause = (IOException) e.getCause();
      throw unreachable(
          cause instanceof SocketTimeoutException
              ? new HttpConnectTimeoutException(cause.getMessage())
              : cause);
    } catch (SocketTimeoutException e) {
      throw unreachable(new HttpTimeoutException(e.getMessage()));
    } catch (IOException e) {
      throw unreachable(e);
    }
    if (answer.status() >= 300) {
      throw ApiErrors.of(config, "GET", path, answer.status(), answer.body());
    }
    return answer.body();
  }

  /**
   * Reads a Server-Sent Events stream: calls {@code onEvent} with each event's name and data until
   * it returns false or the server closes the stream.
   */
  public void events(String path, EventHandler onEvent) {
    HttpRequest request = request(path).header("Accept", "text/event-stream").GET().build();
    HttpResponse<InputStream> response;
    try {
      response = http().send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientException("interrupted");
    }
    try (InputStream in = response.body()) {
      if (response.statusCode() >= 300) {
        throw ApiErrors.of(config, "GET", path, response.statusCode(), in.readAllBytes());
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      String event = "message";
      StringBuilder data = new StringBuilder();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isEmpty()) {
          if (!data.isEmpty() && !onEvent.onEvent(event, data.toString())) {
            return;
          }
          event = "message";
          data.setLength(0);
        } else if (line.startsWith("event:")) {
          event = line.substring(6).strip();
        } else if (line.startsWith("data:")) {
          if (!data.isEmpty()) {
            data.append('\n');
          }
          data.append(line.substring(5).stripLeading());
        }
      }
    } catch (IOException e) {
      throw new ClientException(
          "the watch stream from " + config.serverText() + " broke: " + e.getMessage());
    }
  }

  /** Receives one Server-Sent Event. */
  @FunctionalInterface
  public interface EventHandler {
    /** Handles an event; false ends the stream. */
    boolean onEvent(String name, String data);
  }

  /** Polls {@code path} every {@code every} until {@code done} holds or {@code timeout} passes. */
  public JsonNode poll(String path, Predicate<JsonNode> done, Duration every, Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      JsonNode node = get(path);
      if (done.test(node)) {
        return node;
      }
      if (System.nanoTime() + every.toNanos() > end) {
        return null;
      }
      try {
        Thread.sleep(every.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClientException("interrupted");
      }
    }
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(config.serverText() + path))
            .header("Accept", "application/json")
            .header("User-Agent", "bamel-cli");
    if (config.token() != null) {
      b.header("Authorization", "Bearer " + config.token());
    }
    return b;
  }

  private ClientException unreachable(IOException e) {
    String server = config.serverText();
    if (e instanceof HttpConnectTimeoutException) {
      return new ClientException("cannot connect to the bamel server at " + server + ": timed out");
    }
    if (e instanceof HttpTimeoutException) {
      return new ClientException("the bamel server at " + server + " did not answer in time");
    }
    if (e instanceof ConnectException || e.getCause() instanceof ConnectException) {
      return new ClientException(
          "cannot connect to the bamel server at "
              + server
              + ": connection refused (is it running? set --server, BAMEL_SERVER or server: in "
              + "~/.config/bamel/config.yaml)");
    }
    if (e instanceof SSLException) {
      return new ClientException(
          "TLS with the bamel server at "
              + server
              + " failed: "
              + e.getMessage()
              + (config.caFile() == null ? " (set caFile: or --ca-file to its CA)" : ""));
    }
    String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new ClientException("cannot reach the bamel server at " + server + ": " + detail);
  }

  private static SSLContext sslContext(Path caFile) {
    try (InputStream in = Files.newInputStream(caFile)) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + i++, c);
      }
      if (i == 0) {
        throw new ClientException("the CA file " + caFile + " holds no certificate");
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw new ClientException("cannot read the CA file " + caFile + ": " + e.getMessage());
    } catch (GeneralSecurityException e) {
      throw new ClientException("the CA file " + caFile + " is not PEM certificates");
    }
  }
}
