package io.bamel.power.ipmi.rmcp;

import io.bamel.power.sim.IpmiSimulator;
import io.bamel.power.sim.ipmi.SimIpmiUser;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * OpenIPMI's {@code ipmi_sim} (the real lanserv, started by {@link IpmiSimulator}) for the RMCP+
 * client's tests, with two users: an administrator and a user limited to the USER privilege level.
 */
final class Lanserv implements AutoCloseable {

  static final String ADMIN = "admin";
  static final String ADMIN_PASSWORD = "Rmcp-adm1n-4417";
  static final String VIEWER = "viewer";
  static final String VIEWER_PASSWORD = "Rmcp-v1ewer-2209";

  private final IpmiSimulator sim;

  private Lanserv(IpmiSimulator sim) {
    this.sim = sim;
  }

  static Lanserv start(Path dir) throws IOException, InterruptedException {
    return start(dir, null);
  }

  /** With {@code fru} (or none when null) as the BMC's FRU device 0. */
  static Lanserv start(Path dir, byte[] fru) throws IOException, InterruptedException {
    List<SimIpmiUser> users =
        List.of(
            new SimIpmiUser(ADMIN, ADMIN_PASSWORD, SimIpmiUser.ADMINISTRATOR),
            new SimIpmiUser(VIEWER, VIEWER_PASSWORD, SimIpmiUser.USER));
    return new Lanserv(IpmiSimulator.start(dir, users, fru));
  }

  int port() {
    return sim.port();
  }

  InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), sim.port());
  }

  boolean poweredOn() throws IOException {
    return sim.poweredOn();
  }

  void setPoweredOn(boolean on) throws IOException {
    sim.setPoweredOn(on);
  }

  List<String> powerSets() throws IOException {
    return sim.powerSets();
  }

  /** Runs ipmitool (lanplus, the admin, password through IPMI_PASSWORD) and returns its output. */
  String ipmitool(String... command) throws IOException, InterruptedException {
    return Oracles.ipmitool(sim.port(), ADMIN, ADMIN_PASSWORD, 3, command);
  }

  /** Stops answering (SIGSTOP), like a hung BMC; {@link #thaw} resumes. */
  void freeze() throws IOException, InterruptedException {
    sim.freeze();
  }

  void thaw() throws IOException, InterruptedException {
    sim.thaw();
  }

  @Override
  public void close() {
    sim.close();
  }
}
