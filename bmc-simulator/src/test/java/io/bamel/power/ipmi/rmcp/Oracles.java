package io.bamel.power.ipmi.rmcp;

import io.bamel.power.sim.Freeipmi;
import io.bamel.power.sim.Ipmitool;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The IPMI clients bamel did not write, run against ipmi_sim or the simulator as the RMCP+ client's
 * tests use them: ipmitool ({@link Ipmitool}, two tries of 1 s) and freeipmi's tools ({@link
 * Freeipmi}, with ipmi_sim's workaround). No password on a command line.
 */
final class Oracles {

  private Oracles() {}

  /** ipmitool's output for {@code command} as {@code user} with cipher suite {@code suite}. */
  static String ipmitool(int port, String user, String password, int suite, String... command)
      throws IOException, InterruptedException {
    return Ipmitool.lanplus(port, user, password)
        .cipherSuite(suite)
        .timeoutSeconds(1)
        .retries(2)
        .run(command)
        .output();
  }

  /**
   * A freeipmi tool's output against {@code hosts} (each {@code 127.0.0.1:port}), suite 3, with
   * {@code opensesspriv}: ipmi_sim's Open Session Response carries a maximum privilege level
   * freeipmi rejects otherwise.
   */
  static String freeipmi(Path config, String tool, String hosts, String... command)
      throws IOException, InterruptedException {
    return Freeipmi.lan20(tool, config, hosts).workaround("opensesspriv").run(command).output();
  }
}
