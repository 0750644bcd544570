package io.bamel.power.sim;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/**
 * A small HTTP/1.1 server for the simulator, one virtual thread per connection, that treats each
 * connection as the {@link SimConnection} of the answer it last gave says: kept alive until idle
 * too long, or closed after every answer (announced or not, HTTP/1.0 or 1.1). The JDK's own server
 * cannot close a connection silently or answer HTTP/1.0, which is what real BMCs do to clients.
 */
final class SimHttpServer implements AutoCloseable {

  /** Serves one exchange. */
  interface Handler {
    void handle(SimExchange exchange) throws IOException;
  }

  private static final int MAX_LINE = 16 * 1024;
  private static final int MAX_BODY = 1024 * 1024;

  /** How long a started request may take to arrive in full. */
  private static final int REQUEST_READ_TIMEOUT_MS = 10_000;

  private final ServerSocket server;
  private final Handler handler;
  private final ExecutorService connections = Executors.newVirtualThreadPerTaskExecutor();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong fullHandshakes = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicInteger refusals =
      new java.util.concurrent.atomic.AtomicInteger();
  private final Thread acceptor;
  private volatile boolean closed;

  /** Listens on {@code bind} (TLS when {@code tls} is given) and starts accepting. */
  SimHttpServer(InetSocketAddress bind, SSLContext tls, int backlog, Handler handler)
      throws IOException {
    this.handler = handler;
    this.server =
        tls == null
            ? new ServerSocket(bind.getPort(), backlog, bind.getAddress())
            : tls.getServerSocketFactory()
                .createServerSocket(bind.getPort(), backlog, bind.getAddress());
    this.acceptor = Thread.ofVirtual().name("sim-http-accept").start(this::acceptLoop);
  }

  /** The port listened on. */
  int port() {
    return server.getLocalPort();
  }

  /**
   * Closes each of the next {@code count} connections as soon as it is accepted, before reading
   * anything (over TLS: before the handshake).
   */
  void closeNextConnections(int count) {
    refusals.set(count);
  }

  /**
   * Makes the TLS connections accepted from now on negotiate only the key exchange {@code groups}
   * (nothing changes without TLS).
   */
  void acceptOnlyGroups(String... groups) {
    if (server instanceof SSLServerSocket tls) {
      SSLParameters parameters = tls.getSSLParameters();
      parameters.setNamedGroups(groups);
      tls.setSSLParameters(parameters);
    }
  }

  /** How many connections were accepted so far. */
  long connectionsAccepted() {
    return accepted.get();
  }

  /** How many TLS handshakes were full ones, not resumptions of an earlier session. */
  long fullHandshakes() {
    return fullHandshakes.get();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket socket;
      try {
        socket = server.accept();
      } catch (IOException e) {
        if (closed) {
          return;
        }
        continue;
      }
      long acceptedAt = System.currentTimeMillis();
      accepted.incrementAndGet();
      if (refusals.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
        closeQuietly(socket);
        continue;
      }
      open.add(socket);
      try {
        connections.execute(() -> serve(socket, acceptedAt));
      } catch (RuntimeException e) {
        closeQuietly(socket);
      }
    }
  }

  /**
   * Completes the TLS handshake and counts it when it was a full one: a session created for this
   * connection, not one resumed from an earlier connection's (TLS 1.3 PSK, TLS 1.2 session ID),
   * which keeps its first creation time.
   */
  private void handshake(SSLSocket tls, long acceptedAt) throws IOException {
    tls.setSoTimeout(REQUEST_READ_TIMEOUT_MS);
    tls.startHandshake();
    if (isNew(tls.getSession(), acceptedAt)) {
      fullHandshakes.incrementAndGet();
    }
  }

  /** Whether {@code session} was created for a connection accepted at {@code acceptedAt}. */
  static boolean isNew(SSLSession session, long acceptedAt) {
    return session.getCreationTime() >= acceptedAt;
  }

  private void serve(Socket socket, long acceptedAt) {
    try (socket) {
      socket.setTcpNoDelay(true);
      if (socket instanceof SSLSocket tls) {
        handshake(tls, acceptedAt);
      }
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = new BufferedOutputStream(socket.getOutputStream());
      SimConnection behaviour = SimConnection.DEFAULT;
      while (!closed) {
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, behaviour.idleTimeout().toMillis()));
        int first;
        try {
          first = in.read();
        } catch (SocketTimeoutException e) {
          return; // idle too long: closed without a word, as a BMC does
        }
        if (first < 0) {
          return;
        }
        socket.setSoTimeout(REQUEST_READ_TIMEOUT_MS);
        Request request = readRequest(first, in);
        SimExchange exchange =
            new SimExchange(request.method, request.path, request.headers, request.body);
        try {
          handler.handle(exchange);
        } catch (RuntimeException e) {
          exchange.send(500, "{\"error\":{\"message\":\"simulator failure\"}}", "application/json");
        }
        if (exchange.dropped()) {
          return;
        }
        behaviour = exchange.connection();
        boolean close = behaviour.closeAfterAnswer() || request.wantsClose();
        write(out, exchange, behaviour, request, close);
        if (close) {
          return;
        }
      }
    } catch (SocketException | SocketTimeoutException | EOFException e) {
      // the client went away or stalled: nothing to answer
    } catch (IOException e) {
      // a malformed request or a TLS failure: the connection ends
    } finally {
      open.remove(socket);
    }
  }

  private record Request(
      String method, String path, String version, Map<String, String> headers, byte[] body) {

    boolean wantsClose() {
      String connection = headers.getOrDefault("connection", "");
      if (connection.equalsIgnoreCase("close")) {
        return true;
      }
      return version.equals("HTTP/1.0") && !connection.equalsIgnoreCase("keep-alive");
    }
  }

  private static Request readRequest(int first, InputStream in) throws IOException {
    String line = (char) first + readLine(in);
    String[] parts = line.split(" ");
    if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP/1.x request line");
    }
    Map<String, String> headers = new HashMap<>();
    for (String header = readLine(in); !header.isEmpty(); header = readLine(in)) {
      int colon = header.indexOf(':');
      if (colon > 0) {
        headers.put(
            header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            header.substring(colon + 1).trim());
      }
    }
    byte[] body;
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = readChunked(in);
    } else {
      int length = Integer.parseInt(headers.getOrDefault("content-length", "0").trim());
      if (length < 0 || length > MAX_BODY) {
        throw new IOException("request body too large");
      }
      body = in.readNBytes(length);
      if (body.length != length) {
        throw new EOFException("request body cut short");
      }
    }
    String target = parts[1];
    int query = target.indexOf('?');
    String path = query < 0 ? target : target.substring(0, query);
    return new Request(parts[0].toUpperCase(Locale.ROOT), path, parts[2], headers, body);
  }

  private static byte[] readChunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(in);
      int semicolon = sizeLine.indexOf(';');
      int size =
          Integer.parseInt(
              (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
      if (size == 0) {
        while (!readLine(in).isEmpty()) {
          // trailers
        }
        return body.toByteArray();
      }
      if (body.size() + size > MAX_BODY) {
        throw new IOException("request body too large");
      }
      byte[] chunk = in.readNBytes(size);
      if (chunk.length != size) {
        throw new EOFException("chunk cut short");
      }
      body.write(chunk);
      readLine(in);
    }
  }

  /** A line without its CRLF (or LF). */
  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed mid-request");
      }
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int length =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
      }
      if (line.size() >= MAX_LINE) {
        throw new IOException("line too long");
      }
      line.write(b);
    }
  }

  private static void write(
      OutputStream out,
      SimExchange exchange,
      SimConnection behaviour,
      Request request,
      boolean close)
      throws IOException {
    int status = exchange.status() == 0 ? 500 : exchange.status();
    byte[] body = exchange.responseBody();
    boolean noBody = status == 204 || status == 304 || request.method.equals("HEAD");
    StringBuilder head = new StringBuilder();
    head.append(behaviour.oldHttp() ? "HTTP/1.0 " : "HTTP/1.1 ")
        .append(status)
        .append(' ')
        .append(reason(status))
        .append("\r\n");
    exchange
        .responseHeaders()
        .forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    if (!noBody) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    boolean clientAskedClose = "close".equalsIgnoreCase(request.headers.get("connection"));
    if (behaviour.announceClose() || clientAskedClose) {
      head.append("Connection: close\r\n");
    } else if (!close && request.version.equals("HTTP/1.0")) {
      head.append("Connection: keep-alive\r\n");
    }
    if (!close && behaviour.announceIdleTimeout()) {
      head.append("Keep-Alive: timeout=")
          .append(behaviour.idleTimeout().toSeconds())
          .append("\r\n");
    }
    head.append("\r\n");
    out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!noBody) {
      out.write(body);
    }
    out.flush();
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 201 -> "Created";
      case 202 -> "Accepted";
      case 204 -> "No Content";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 412 -> "Precondition Failed";
      case 428 -> "Precondition Required";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      default -> "Other Status";
    };
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already gone
    }
  }

  /** Stops accepting and closes every connection. */
  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      open.forEach(SimHttpServer::closeQuietly);
      connections.shutdownNow();
      acceptor.interrupt();
    }
  }
}
