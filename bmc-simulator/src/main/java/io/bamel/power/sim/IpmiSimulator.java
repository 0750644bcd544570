package io.bamel.power.sim;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code ipmi_sim} (Debian openipmi) on a free 127.0.0.1 UDP port, with a generated LAN
 * config, one admin user, and a {@code chassis_control} script that keeps the power state in a file
 * and logs every power value set (the script ships with this class). {@code ipmi_sim} and {@code
 * ipmitool} are found on {@code PATH}. For tests, the demo and benchmarks.
 */
public final class IpmiSimulator implements AutoCloseable {

  private static final String IPMI_SIM = "ipmi_sim";
  private static final String IPMITOOL = "ipmitool";

  /** Each tool and the Debian package that provides it. */
  private static final List<Map.Entry<String, String>> PACKAGES =
      List.of(Map.entry(IPMI_SIM, "openipmi"), Map.entry(IPMITOOL, "ipmitool"));

  /** The file the chassis_control script appends every {@code set power N} to. */
  private static final String POWER_LOG = "power.state.log";

  private final Path dir;
  private final int port;
  private final String username;
  private final String password;
  private final Path ipmitool;
  private final Process process;

  private IpmiSimulator(
      Path dir, int port, String username, String password, Path ipmitool, Process process) {
    this.dir = dir;
    this.port = port;
    this.username = username;
    this.password = password;
    this.ipmitool = ipmitool;
    this.process = process;
  }

  /** Whether ipmi_sim and ipmitool are on {@code PATH}. */
  public static boolean available() {
    return missingTools().isEmpty();
  }

  /**
   * The tools missing from {@code PATH}, each named with the Debian package that provides it (such
   * as {@code "ipmi_sim (Debian package openipmi)"}); empty when both are there.
   */
  public static List<String> missingTools() {
    return missingTools(System.getenv("PATH"));
  }

  /** {@link #missingTools()} for a given search path. */
  static List<String> missingTools(String searchPath) {
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, String> tool : PACKAGES) {
      if (ExecutableSearch.find(tool.getKey(), searchPath).isEmpty()) {
        missing.add(tool.getKey() + " (Debian package " + tool.getValue() + ")");
      }
    }
    return missing;
  }

  /** Starts ipmi_sim in {@code dir}, the system off; waits until it answers. */
  public static IpmiSimulator start(Path dir, String username, String password)
      throws IOException, InterruptedException {
    List<String> missing = missingTools();
    if (!missing.isEmpty()) {
      throw new IOException("not on PATH: " + String.join(", ", missing));
    }
    String path = System.getenv("PATH");
    Path ipmiSim = ExecutableSearch.find(IPMI_SIM, path).orElseThrow();
    Path ipmitool = ExecutableSearch.find(IPMITOOL, path).orElseThrow();
    Files.createDirectories(dir);
    int port = freeUdpPort();
    Path script = dir.resolve("chassis-control.sh");
    try (InputStream in = IpmiSimulator.class.getResourceAsStream("chassis-control.sh")) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Path state = dir.resolve("power.state");
    Files.writeString(state, "0\n");
    Files.deleteIfExists(dir.resolve(POWER_LOG));
    String lan =
        String.join(
            "\n",
            "name \"bamel-test\"",
            "set_working_mc 0x20",
            "startlan 1",
            "  addr 127.0.0.1 " + port,
            "  priv_limit admin",
            "  allowed_auths_callback none md2 md5 straight",
            "  allowed_auths_user none md2 md5 straight",
            "  allowed_auths_operator none md2 md5 straight",
            "  allowed_auths_admin none md2 md5 straight",
            "  guid a123456789abcdefa123456789abcdef",
            "endlan",
            "chassis_control \"" + script + " " + state + "\"",
            "user 2 true \"" + username + "\" \"" + password + "\" admin 10 none md2 md5 straight",
            "");
    Files.writeString(dir.resolve("lan.conf"), lan);
    Files.writeString(
        dir.resolve("bmc.emu"),
        String.join(
            "\n",
            "mc_setbmc 0x20",
            "mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02",
            "sel_enable 0x20 1000 0x0a",
            "mc_enable 0x20",
            ""));
    Process process = launch(ipmiSim.toString(), dir);
    IpmiSimulator simulator = new IpmiSimulator(dir, port, username, password, ipmitool, process);
    simulator.awaitReady();
    return simulator;
  }

  /**
   * Starts {@code program} ({@code ipmi_sim}) on the {@code lan.conf} and {@code bmc.emu} already
   * written in {@code dir}, its state in {@code dir/state}, its output in {@code dir/ipmi_sim.log},
   * without a console and detached from standard input.
   */
  public static Process launch(String program, Path dir) throws IOException {
    Files.createDirectories(dir.resolve("state"));
    return new ProcessBuilder(
            program,
            "-c",
            dir.resolve("lan.conf").toString(),
            "-f",
            dir.resolve("bmc.emu").toString(),
            "-s",
            dir.resolve("state").toString(),
            "-n",
            "-p")
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("ipmi_sim.log").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
  }

  /** {@code 127.0.0.1:PORT}. */
  public String address() {
    return "127.0.0.1:" + port;
  }

  /** The UDP port. */
  public int port() {
    return port;
  }

  /** The ipmi_sim process id. */
  public long pid() {
    return process.pid();
  }

  /** The power state the chassis_control script keeps: {@code true} when on. */
  public boolean poweredOn() throws IOException {
    return Files.readString(dir.resolve("power.state")).trim().equals("1");
  }

  /** Sets the kept power state. */
  public void setPoweredOn(boolean on) throws IOException {
    Files.writeString(dir.resolve("power.state"), on ? "1\n" : "0\n");
  }

  /**
   * Every power value ipmi_sim set through the chassis_control script since the start, oldest
   * first: {@code "0"} for off, {@code "1"} for on (a power cycle shows as a {@code 0}, then a
   * {@code 1}).
   */
  public List<String> powerSets() throws IOException {
    Path log = dir.resolve(POWER_LOG);
    return Files.exists(log)
        ? Files.readAllLines(log).stream().map(String::trim).toList()
        : List.of();
  }

  /** The ipmitool found on {@code PATH} at start. */
  public Path ipmitool() {
    return ipmitool;
  }

  /** The boot device last set, as the script keeps it. */
  public String bootDevice() throws IOException {
    Path boot = dir.resolve("power.state.boot");
    return Files.exists(boot) ? Files.readString(boot).trim() : "default";
  }

  /** Freezes the simulator (SIGSTOP): it stops answering, like a hung BMC. */
  public void freeze() throws IOException, InterruptedException {
    signal("-STOP");
  }

  /** Resumes a frozen simulator (SIGCONT). */
  public void thaw() throws IOException, InterruptedException {
    signal("-CONT");
  }

  private void signal(String signal) throws IOException, InterruptedException {
    new ProcessBuilder("kill", signal, String.valueOf(process.pid())).start().waitFor();
  }

  private void awaitReady() throws IOException, InterruptedException {
    Instant until = Instant.now().plus(Duration.ofSeconds(10));
    while (Instant.now().isBefore(until)) {
      if (!process.isAlive()) {
        throw new IOException("ipmi_sim exited: " + Files.readString(dir.resolve("ipmi_sim.log")));
      }
      ProcessBuilder probe =
          new ProcessBuilder(
              List.of(
                  ipmitool.toString(),
                  "-I",
                  "lanplus",
                  "-H",
                  "127.0.0.1",
                  "-p",
                  String.valueOf(port),
                  "-U",
                  username,
                  "-E",
                  "-C",
                  "3",
                  "-N",
                  "1",
                  "-R",
                  "1",
                  "chassis",
                  "power",
                  "status"));
      probe.environment().putAll(Map.of("IPMI_PASSWORD", password));
      probe.redirectErrorStream(true);
      Process p = probe.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor(5, TimeUnit.SECONDS) && out.contains("Chassis Power is")) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IOException("ipmi_sim did not answer on port " + port);
  }

  private static int freeUdpPort() throws IOException {
    try (DatagramSocket socket =
        new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    try {
      thaw();
      process.destroy();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
