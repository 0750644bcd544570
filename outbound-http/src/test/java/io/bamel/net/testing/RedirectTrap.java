package io.bamel.net.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two loopback servers for the redirect attack: the <em>allowed</em> one answers every request with
 * {@code 302 Found} to the same path on the <em>other</em> origin (another port of 127.0.0.1),
 * which counts every connection made to it and answers none. A client that keeps to the policy
 * leaves the other origin at zero connections.
 */
public final class RedirectTrap implements AutoCloseable {

  private final HttpServer allowed;
  private final ServerSocket other;
  private final AtomicInteger allowedRequests = new AtomicInteger();
  private final AtomicInteger otherConnections = new AtomicInteger();
  private final Thread acceptor;

  private RedirectTrap() throws IOException {
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    other = new ServerSocket(0, 50, loopback);
    acceptor =
        new Thread(
            () -> {
              while (!other.isClosed()) {
                try {
                  Socket connection = other.accept();
                  otherConnections.incrementAndGet();
                  connection.close();
                } catch (SocketException e) {
                  return;
                } catch (IOException e) {
                  // keep counting
                }
              }
            },
            "redirect-trap-other-origin");
    acceptor.setDaemon(true);
    acceptor.start();
    allowed = HttpServer.create(new InetSocketAddress(loopback, 0), 50);
    allowed.createContext(
        "/",
        ex -> {
          allowedRequests.incrementAndGet();
          byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
          ex.getResponseHeaders().set("Location", otherOrigin() + ex.getRequestURI());
          ex.getResponseHeaders().set("Content-Type", "application/json");
          ex.sendResponseHeaders(302, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    allowed.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    allowed.start();
  }

  /** Starts both servers on free loopback ports. */
  public static RedirectTrap start() throws IOException {
    return new RedirectTrap();
  }

  /** {@code http://127.0.0.1:<port>} of the server that redirects. */
  public String allowedOrigin() {
    return "http://127.0.0.1:" + allowed.getAddress().getPort();
  }

  /** The port of the server that redirects. */
  public int allowedPort() {
    return allowed.getAddress().getPort();
  }

  /** {@code http://127.0.0.1:<port>} of the origin redirected to. */
  public String otherOrigin() {
    return "http://127.0.0.1:" + other.getLocalPort();
  }

  /** How many requests the redirecting server answered. */
  public int allowedRequests() {
    return allowedRequests.get();
  }

  /** How many connections reached the other origin. */
  public int otherConnections() {
    return otherConnections.get();
  }

  @Override
  public void close() throws IOException {
    allowed.stop(0);
    other.close();
  }
}
