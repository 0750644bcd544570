package io.bamel.power.sim;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP request to the simulator and the answer being built for it. Not thread-safe: one handler
 * fills it in.
 */
final class SimExchange {

  private final String method;
  private final String path;
  private final Map<String, String> headers;
  private final byte[] body;

  private final Map<String, String> responseHeaders = new LinkedHashMap<>();
  private int status;
  private byte[] responseBody = new byte[0];
  private boolean dropped;
  private SimConnection connection = SimConnection.DEFAULT;

  SimExchange(String method, String path, Map<String, String> headers, byte[] body) {
    this.method = method;
    this.path = path;
    this.headers = headers;
    this.body = body;
  }

  /** The request method, upper case. */
  String method() {
    return method;
  }

  /** The request path, without the query. */
  String path() {
    return path;
  }

  /** A request header (case-insensitive), or {@code null}. */
  String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** The request body (empty when none). */
  byte[] body() {
    return body;
  }

  /** Sets a header of the answer. */
  void responseHeader(String name, String value) {
    responseHeaders.put(name, value);
  }

  /** Answers with {@code status} and a body ({@code null}: none). */
  void send(int code, String text, String contentType) {
    status = code;
    responseBody = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
    if (text != null) {
      responseHeaders.put(SimVocabulary.WIRE.headers().contentType(), contentType);
    }
  }

  /** Answers with {@code status} and the bytes of a body ({@code null}: none). */
  void send(int code, byte[] bytes, String contentTypeHeader, String contentType) {
    status = code;
    responseBody = bytes == null ? new byte[0] : bytes;
    if (bytes != null) {
      responseHeaders.put(contentTypeHeader, contentType);
    }
  }

  /** Closes the connection without an answer. */
  void drop() {
    dropped = true;
  }

  /** How the connection is treated after this answer. */
  void connection(SimConnection behaviour) {
    connection = behaviour;
  }

  int status() {
    return status;
  }

  byte[] responseBody() {
    return responseBody;
  }

  Map<String, String> responseHeaders() {
    return responseHeaders;
  }

  boolean dropped() {
    return dropped;
  }

  SimConnection connection() {
    return connection;
  }
}
