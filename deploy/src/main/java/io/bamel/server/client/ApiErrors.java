package io.bamel.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Turns an error answer into the one line a person reads: the status, the server's own explanation
 * (a problem's {@code detail} and field errors, RFC 9457) and, for 401 and 403, what to change. The
 * server never echoes a token, and neither does this.
 */
final class ApiErrors {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ApiErrors() {}

  /** The exception for an answer with {@code status} to {@code method path}. */
  static ClientException of(
      ClientConfig config, String method, String path, int status, byte[] body) {
    return new ClientException(message(config, method, path, status, body), status);
  }

  /** The message: {@code <what> (<status> from <server>): <server's detail>}. */
  static String message(ClientConfig config, String method, String path, int status, byte[] body) {
    String server = config.serverText();
    String detail = detail(body);
    String what =
        switch (status) {
          case 401 ->
              config.token() == null
                  ? "not signed in: no token (set BAMEL_TOKEN, or tokenFile: in the config)"
                  : "the server refused the token from " + config.tokenSource();
          case 403 -> "forbidden: the token's scope does not allow " + method + " " + path;
          case 404 -> "not found: " + path;
          case 405 -> "the server does not offer " + method + " " + path;
          default -> method + " " + path + " failed";
        };
    StringBuilder line = new StringBuilder(what).append(" (").append(status);
    line.append(" from ").append(server).append(')');
    if (detail != null) {
      line.append(": ").append(detail);
    }
    return line.toString();
  }

  /** A problem's detail (or title) and field errors; a short plain body; null otherwise. */
  static String detail(byte[] body) {
    if (body == null || body.length == 0) {
      return null;
    }
    JsonNode problem;
    try {
      problem = JSON.readTree(body);
    } catch (IOException e) {
      String text = new String(body, java.nio.charset.StandardCharsets.UTF_8).strip();
      return text.isEmpty() || text.length() > 200 || text.startsWith("<") ? null : text;
    }
    if (problem == null || !problem.isObject()) {
      return null;
    }
    StringBuilder s = new StringBuilder();
    String detail = problem.path("detail").asText(problem.path("title").asText(""));
    s.append(detail);
    for (JsonNode error : problem.path("errors")) {
      s.append(s.isEmpty() ? "" : "; ")
          .append(error.path("field").asText("?"))
          .append(": ")
          .append(error.path("message").asText(""));
    }
    return s.isEmpty() ? null : s.toString();
  }
}
