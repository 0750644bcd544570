package io.bamel.server;

import io.bamel.inventory.embedded.OwnSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code bin/bamel} run as a user would: a child process whose output lines are collected, so a
 * test can wait for a line, send SIGTERM or SIGKILL, and read the exit code.
 */
final class BamelProcess implements AutoCloseable {

  private final Process process;
  private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final Thread reader;

  private BamelProcess(Process process) {
    this.process = process;
    this.reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("(output closed: " + e.getMessage() + ")");
              }
            },
            "bamel-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** The launcher built by {@code mvn package}: {@code deploy/target/bamel/bin/bamel}. */
  static Path launcher() {
    Path home = Path.of(System.getProperty("bamel.home", "target/bamel"));
    Path bin = home.resolve("bin/bamel");
    if (!Files.isExecutable(bin)) {
      throw new IllegalStateException(bin + " is missing: run mvn package first");
    }
    return bin;
  }

  /**
   * The environment of a {@code bamel server} child on {@code etcdEndpoints} with anonymous reads
   * and no Kubernetes: {@code components}, HTTP on {@code port} (0: a free one it picks), the JVM
   * options {@code javaOpts}.
   */
  static Map<String, String> serverEnv(
      List<String> etcdEndpoints, String components, int port, String javaOpts) {
    return Map.of(
        "BAMEL_ETCD_ENDPOINTS",
        String.join(",", etcdEndpoints),
        "BAMEL_AUTH_ANONYMOUS_READ",
        "true",
        "BAMEL_COMPONENTS",
        components,
        "BAMEL_KUBERNETES_MODE",
        "none",
        "BAMEL_HTTP_PORT",
        String.valueOf(port),
        "JAVA_OPTS",
        javaOpts);
  }

  /** Starts {@code bin/bamel args...} with extra environment variables. */
  static BamelProcess start(Map<String, String> env, String... args) throws IOException {
    return start(List.of(), env, args);
  }

  /**
   * Starts {@code bin/bamel args...} as a terminal starts a foreground command: the leader of a
   * process group of its own ({@code setsid}, which execs, so {@link #pid()} is the group's id), so
   * that {@link #interruptGroup(Duration)} can send Ctrl-C's SIGINT to the whole group, with
   * SIGINT's default disposition ({@code env --default-signal=INT}, which execs too). A shell
   * ignores SIGINT in the commands it runs in the background ({@code make test &}), every process
   * after it inherits that, and a JVM started with SIGINT ignored keeps ignoring it: the test would
   * then measure how it was started, not how bamel stops.
   */
  static BamelProcess startAsForegroundGroup(Map<String, String> env, String... args)
      throws IOException {
    List<String> prefix = new ArrayList<>(OwnSession.prefix(System.getenv()));
    if (prefix.isEmpty()) {
      throw new IllegalStateException("setsid (util-linux) is not on the PATH");
    }
    prefix.addAll(List.of("env", "--default-signal=INT"));
    return start(prefix, env, args);
  }

  private static BamelProcess start(List<String> prefix, Map<String, String> env, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(prefix);
    cmd.add(launcher().toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putAll(env);
    if (System.getProperty("java.home") != null) {
      pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    }
    return new BamelProcess(pb.start());
  }

  /** Waits for a line matching {@code match}; fails with the output so far on timeout or exit. */
  String await(Predicate<String> match, Duration timeout, String what) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int seen = 0;
    while (System.nanoTime() < deadline) {
      synchronized (lines) {
        for (; seen < lines.size(); seen++) {
          if (match.test(lines.get(seen))) {
            return lines.get(seen);
          }
        }
      }
      if (!process.isAlive() && outputDrained() && seen >= lines.size()) {
        throw new AssertionError(
            "bamel exited (" + process.exitValue() + ") before " + what + ":\n" + output());
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no " + what + " within " + timeout + ":\n" + output());
  }

  /**
   * Whether every line of a process that has exited has been collected: the reader may still be
   * reading the last lines from the pipe after the process ended.
   */
  private boolean outputDrained() throws InterruptedException {
    reader.join(Duration.ofSeconds(5));
    return !reader.isAlive();
  }

  /** The value after {@code prefix} on the first line that contains it. */
  String valueAfter(String prefix, Duration timeout) throws InterruptedException {
    String line = await(l -> l.contains(prefix), timeout, "'" + prefix + "'");
    return line.substring(line.indexOf(prefix) + prefix.length()).trim();
  }

  /**
   * The port of the API (or, in a controller-only process, of health and metrics) from the start-up
   * banner's {@code API:} line: tests start bamel on port 0 and read the port it bound.
   */
  int port(Duration timeout) throws InterruptedException {
    String url = valueAfter("API:", timeout);
    return java.net.URI.create(url).getPort();
  }

  /** The threads of the bamel JVM as {@code jcmd Thread.print} prints them (for a failure). */
  private String threadDump() {
    Path jcmd =
        ProcessHandle.current()
            .info()
            .command()
            .map(java -> Path.of(java).resolveSibling("jcmd"))
            .orElse(Path.of("jcmd"));
    try {
      Process p =
          new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
              .redirectErrorStream(true)
              .start();
      String dump = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(30, TimeUnit.SECONDS);
      return dump;
    } catch (IOException e) {
      return "(no thread dump: " + e + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "(no thread dump: interrupted)";
    }
  }

  /** Everything printed so far. */
  String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  /** The lines printed so far. */
  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Sends SIGTERM and waits for the exit code, and for the last lines of output to be collected (so
   * {@link #lines()} is then complete).
   */
  int terminate(Duration timeout) throws InterruptedException {
    // Through the handle: Process.destroy() would also close our end of the output pipe, losing
    // everything bamel prints while it stops.
    process.toHandle().destroy();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          "bamel did not stop within " + timeout + " after SIGTERM:\n" + output());
    }
    if (!outputDrained()) {
      throw new AssertionError("bamel exited but its output stayed open:\n" + output());
    }
    return process.exitValue();
  }

  /**
   * Sends SIGINT to bamel's whole process group, as Ctrl-C in a terminal does ({@code kill -INT --
   * -PGID}), and waits for the exit code and the last lines of output.
   */
  int interruptGroup(Duration timeout) throws InterruptedException, IOException {
    String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
    // Field 5 of /proc/PID/stat (after the parenthesised command name) is the process group.
    String pgid = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2];
    if (!pgid.equals(Long.toString(process.pid()))) {
      throw new AssertionError("bamel does not lead its process group (" + pgid + ")");
    }
    Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + pgid).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new AssertionError("kill -INT -- -" + pgid + " failed");
    }
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          "bamel did not stop within "
              + timeout
              + " after SIGINT:\n"
              + output()
              + "\nits threads:\n"
              + threadDump());
    }
    if (!outputDrained()) {
      throw new AssertionError("bamel exited but its output stayed open:\n" + output());
    }
    return process.exitValue();
  }

  /** Waits for bamel to exit by itself (as after a start-up error); its exit code. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("bamel did not exit within " + timeout + ":\n" + output());
    }
    return process.exitValue();
  }

  /** Sends SIGKILL, as a crash would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
