package io.bamel.power.ipmi.rmcp;

import io.bamel.power.sim.IpmiSimulator;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * OpenIPMI's {@code ipmi_sim} (the real lanserv) for the RMCP+ client's tests, with two users: an
 * administrator and a user limited to the USER privilege level; power kept by the same
 * chassis_control script as {@link IpmiSimulator}. Readiness is probed with {@code ipmitool}.
 */
final class Lanserv implements AutoCloseable {

  static final String ADMIN = "admin";
  static final String ADMIN_PASSWORD = "Rmcp-adm1n-4417";
  static final String VIEWER = "viewer";
  static final String VIEWER_PASSWORD = "Rmcp-v1ewer-2209";
  static final String GUID = "a123456789abcdefa123456789abcdef";

  private final Path dir;
  private final int port;
  private final Process process;

  private Lanserv(Path dir, int port, Process process) {
    this.dir = dir;
    this.port = port;
    this.process = process;
  }

  static Lanserv start(Path dir) throws IOException, InterruptedException {
    return start(dir, null);
  }

  /** With {@code fru} (or none when null) as the BMC's FRU device 0. */
  static Lanserv start(Path dir, byte[] fru) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    int port;
    try (DatagramSocket socket =
        new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      port = socket.getLocalPort();
    }
    Path script = dir.resolve("chassis-control.sh");
    try (InputStream in = IpmiSimulator.class.getResourceAsStream("chassis-control.sh")) {
      Files.write(script, in.readAllBytes());
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Files.writeString(dir.resolve("power.state"), "0\n");
    String auths = "none md2 md5 straight";
    Files.writeString(
        dir.resolve("lan.conf"),
        String.join(
            "\n",
            "name \"rmcp-test\"",
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
            "chassis_control \"" + script + " " + dir.resolve("power.state") + "\"",
            "user 2 true \"" + ADMIN + "\" \"" + ADMIN_PASSWORD + "\" admin 10 " + auths,
            "user 3 true \"" + VIEWER + "\" \"" + VIEWER_PASSWORD + "\" user 10 " + auths,
            ""));
    Files.writeString(
        dir.resolve("bmc.emu"),
        String.join(
            "\n",
            "mc_setbmc 0x20",
            "mc_add 0x20 0 no-device-sdrs 0x23 9 8 0x9f 0x1291 0xf02",
            fru == null ? "" : fruData(fru),
            "mc_enable 0x20",
            ""));
    Process process = io.bamel.power.sim.IpmiSimulator.launch("ipmi_sim", dir);
    Lanserv lanserv = new Lanserv(dir, port, process);
    lanserv.awaitReady();
    return lanserv;
  }

  int port() {
    return port;
  }

  InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
  }

  boolean poweredOn() throws IOException {
    return Files.readString(dir.resolve("power.state")).trim().equals("1");
  }

  void setPoweredOn(boolean on) throws IOException {
    Files.writeString(dir.resolve("power.state"), on ? "1\n" : "0\n");
  }

  List<String> powerSets() throws IOException {
    Path log = dir.resolve("power.state.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  /** Runs ipmitool (lanplus, the admin, password through IPMI_PASSWORD) and returns its output. */
  String ipmitool(String... command) throws IOException, InterruptedException {
    return Oracles.ipmitool(port, ADMIN, ADMIN_PASSWORD, 3, command);
  }

  private void awaitReady() throws IOException, InterruptedException {
    Instant until = Instant.now().plus(Duration.ofSeconds(10));
    while (Instant.now().isBefore(until)) {
      if (!process.isAlive()) {
        throw new IOException("ipmi_sim exited: " + Files.readString(dir.resolve("ipmi_sim.log")));
      }
      if (ipmitool("chassis", "power", "status").contains("Chassis Power is")) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IOException("ipmi_sim did not answer on port " + port);
  }

  /** Stops answering (SIGSTOP), like a hung BMC; {@link #thaw} resumes. */
  void freeze() throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-STOP", String.valueOf(process.pid())).start().waitFor();
  }

  void thaw() throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-CONT", String.valueOf(process.pid())).start().waitFor();
  }

  @Override
  public void close() throws IOException {
    try {
      thaw();
      process.destroy();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  static String text(Process process) throws IOException, InterruptedException {
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor(20, TimeUnit.SECONDS);
    return out;
  }

  /** ipmi_sim's command giving MC 0x20 the FRU device 0 {@code fru}. */
  private static String fruData(byte[] fru) {
    StringBuilder line = new StringBuilder("mc_add_fru_data 0x20 0 " + fru.length + " data");
    for (byte b : fru) {
      line.append(String.format(" 0x%02x", b & 0xff));
    }
    return line.toString();
  }
}
