package io.bamel.power.sim.ipmi;

import io.bamel.power.sim.ClientRun;
import io.bamel.power.sim.Freeipmi;
import io.bamel.power.sim.Ipmitool;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * ipmitool and freeipmi's ipmipower as the simulated fleet's tests run them: one try of 1 s for
 * ipmitool at a given privilege level, ipmipower without any workaround (the simulator needs none).
 * No password on a command line ({@link Ipmitool}, {@link Freeipmi}).
 */
final class RealClients {

  private RealClients() {}

  static ClientRun ipmitool(
      int port, String user, String password, int suite, String privilege, String... command)
      throws IOException, InterruptedException {
    return Ipmitool.lanplus(port, user, password)
        .cipherSuite(suite)
        .privilege(privilege)
        .timeoutSeconds(1)
        .retries(1)
        .run(command);
  }

  /** ipmipower over LAN 2.0 against {@code hosts} ({@code 127.0.0.1:port,...}), no workaround. */
  static ClientRun ipmipower(Path config, String hosts, int suite, String... command)
      throws IOException, InterruptedException {
    return Freeipmi.lan20("ipmipower", config, hosts)
        .cipherSuite(suite)
        .sessionTimeout(Duration.ofSeconds(20))
        .retransmissionTimeout(Duration.ofSeconds(1))
        .run(command);
  }
}
