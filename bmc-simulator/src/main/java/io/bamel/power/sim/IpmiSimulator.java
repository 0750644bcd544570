package io.bamel.power.sim;

import io.bamel.power.sim.ipmi.SimIpmiUser;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
 * config, its users (one administrator, or as given), an optional FRU device, and a {@code
 * chassis_control} script that keeps the power state in a file and logs every power value set (the
 * script ships with this class). {@code ipmi_sim} and {@code ipmitool} are found on {@code PATH};
 * readiness is probed with ipmitool ({@link Ipmitool}). For tests, the demo and benchmarks.
 */
public final class IpmiSimulator implements AutoCloseable {

  private static final String IPMI_SIM = "ipmi_sim";
  private static final String IPMITOOL = "ipmitool";

  /** Each tool and the Debian package that provides it. */
  private static final List<Map.Entry<String, String>> PACKAGES =
      List.of(Map.entry(IPMI_SIM, "openipmi"), Map.entry(IPMITOOL, "ipmitool"));

  /** The BMC's GUID, as {@code mc guid} prints it without dashes. */
  private static final String GUID = "a123456789abcdefa123456789abcdef";

  /** ipmi_sim's names of the IPMI privilege levels, by number. */
  private static final Map<Integer, String> PRIVILEGES =
      Map.of(
          SimIpmiUser.USER, "user",
          SimIpmiUser.OPERATOR, "operator",
          SimIpmiUser.ADMINISTRATOR, "admin");

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

  /**
   * Starts ipmi_sim in {@code dir} with one administrator, the system off; waits until it answers.
   */
  public static IpmiSimulator start(Path dir, String username, String password)
      throws IOException, InterruptedException {
    return start(
        dir, List.of(new SimIpmiUser(username, password, SimIpmiUser.ADMINISTRATOR)), null);
  }

  /**
   * Starts ipmi_sim in {@code dir}, the system off, with {@code users} (user ids 2, 3, ... in that
   * order; the first must be an administrator: it probes readiness) and {@code fru} as the BMC's
   * FRU device 0 (none when null); waits until it answers.
   */
  public static IpmiSimulator start(Path dir, List<SimIpmiUser> users, byte[] fru)
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
    Files.writeString(dir.resolve("lan.conf"), lanConf(port, script, state, users));
    Files.writeString(
        dir.resolve("bmc.emu"),
        String.join(
            "\n",
            "mc_setbmc 0x20",
            "mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02",
            "sel_enable 0x20 1000 0x0a",
            fru == null ? "" : fruData(fru),
            "mc_enable 0x20",
            ""));
    Process process = launch(ipmiSim.toString(), dir);
    SimIpmiUser admin = users.get(0);
    IpmiSimulator simulator =
        new IpmiSimulator(dir, port, admin.name(), admin.password(), ipmitool, process);
    simulator.awaitReady();
    return simulator;
  }

  /** ipmi_sim's LAN configuration: 127.0.0.1:{@code port}, every user, the chassis script. */
  private static String lanConf(int port, Path script, Path state, List<SimIpmiUser> users) {
    String auths = "none md2 md5 straight";
    List<String> lines =
        new ArrayList<>(
            List.of(
                "name \"bamel-test\"",
                "set_working_mc 0x20",
                "startlan 1",
                "  addr 127.0.0.1 " + port,
                "  priv_limit admin",
                "  allowed_auths_callback " + auths,
                "  allowed_auths_user " + auths,
                "  allowed_auths_operator " + auths,
                "  allowed_auths_admin " + auths,
                "  guid " + GUID,
                "endlan",
                "chassis_control \"" + script + " " + state + "\""));
    for (int i = 0; i < users.size(); i++) {
      SimIpmiUser user = users.get(i);
      lines.add(
          String.format(
              "user %d true \"%s\" \"%s\" %s 10 %s",
              i + 2, user.name(), user.password(), PRIVILEGES.get(user.maxPrivilege()), auths));
    }
    lines.add("");
    return String.join("\n", lines);
  }

  /** ipmi_sim's command giving MC 0x20 the FRU device 0 {@code fru}. */
  private static String fruData(byte[] fru) {
    StringBuilder line = new StringBuilder("mc_add_fru_data 0x20 0 " + fru.length + " data");
    for (byte b : fru) {
      line.append(String.format(" 0x%02x", b & 0xff));
    }
    return line.toString();
  }

  /**
   * Starts {@code program} ({@code ipmi_sim}) on the {@code lan.conf} and {@code bmc.emu} already
   * written in {@code dir}, its state in {@code dir/state}, its output in {@code dir/ipmi_sim.log},
   * without a console and detached from standard input.
   */
  private static Process launch(String program, Path dir) throws IOException {
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
      ClientRun probe =
          Ipmitool.lanplus(port, username, password)
              .program(ipmitool.toString())
              .timeoutSeconds(1)
              .retries(1)
              .run("chassis", "power", "status");
      if (probe.output().contains("Chassis Power is")) {
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
