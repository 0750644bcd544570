package io.bamel.server.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The network between the browser and bamel, under the test's control: a TCP proxy on a loopback
 * port that forwards to bamel's port, can cut every open connection ({@link #cut()}, as a dropped
 * network does) and refuse new ones ({@link #refuse}), and records the request lines it forwarded.
 */
final class TcpProxy implements AutoCloseable {

  private static final Pattern REQUEST_LINE =
      Pattern.compile("(GET|POST|PUT|PATCH|DELETE|HEAD) (\\S+) HTTP/1\\.1");

  private final ServerSocket server;
  private final int target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final List<String> requests = Collections.synchronizedList(new ArrayList<>());
  private volatile boolean refusing;
  private volatile boolean closed;

  TcpProxy(int targetPort) throws IOException {
    this.target = targetPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "test-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The proxy's port: the browser's server. */
  int port() {
    return server.getLocalPort();
  }

  /** Closes every open connection. */
  void cut() {
    for (Socket s : open) {
      closeQuietly(s);
    }
    open.clear();
  }

  /** While on, new connections are closed at once. */
  void refuse(boolean on) {
    refusing = on;
  }

  /** The request lines ({@code GET /path}) forwarded so far. */
  List<String> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        if (refusing) {
          closeQuietly(client);
          continue;
        }
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
        open.add(client);
        open.add(upstream);
        pump(client, upstream, true);
        pump(upstream, client, false);
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  private void pump(Socket from, Socket to, boolean requestsFlow) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                  if (requestsFlow) {
                    record(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // cut or closed
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
              }
            },
            "test-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private void record(String chunk) {
    Matcher m = REQUEST_LINE.matcher(chunk);
    while (m.find()) {
      requests.add(m.group(1) + " " + m.group(2));
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    cut();
  }
}
