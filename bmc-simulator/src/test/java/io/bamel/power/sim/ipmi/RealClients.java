package io.bamel.power.sim.ipmi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * ipmitool ({@code -I lanplus}, the password in {@code IPMI_PASSWORD} with {@code -E}) and
 * freeipmi's ipmipower (user and password in a mode-600 configuration file), run against the
 * simulated fleet. No password on a command line.
 */
final class RealClients {

  private RealClients() {}

  /** ipmitool's output (standard output and error) and exit code. */
  record Run(int exit, String output) {}

  static Run ipmitool(
      int port, String user, String password, int suite, String privilege, String... command)
      throws IOException, InterruptedException {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "ipmitool",
                "-I",
                "lanplus",
                "-H",
                "127.0.0.1",
                "-p",
                String.valueOf(port),
                "-U",
                user,
                "-E",
                "-C",
                String.valueOf(suite),
                "-L",
                privilege,
                "-N",
                "1",
                "-R",
                "1"));
    argv.addAll(List.of(command));
    ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
    builder.environment().put("IPMI_PASSWORD", password);
    return run(builder.start());
  }

  /** ipmipower over LAN 2.0 against {@code hosts} ({@code 127.0.0.1:port,...}), no workaround. */
  static Run ipmipower(Path config, String hosts, int suite, String... command)
      throws IOException, InterruptedException {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "ipmipower",
                "--config-file=" + config,
                "-h",
                hosts,
                "-D",
                "LAN_2_0",
                "-I",
                String.valueOf(suite),
                "-l",
                "ADMIN",
                "--session-timeout=20000",
                "--retransmission-timeout=1000"));
    argv.addAll(List.of(command));
    return run(new ProcessBuilder(argv).redirectErrorStream(true).start());
  }

  private static Run run(Process process) throws IOException, InterruptedException {
    byte[] out = process.getInputStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("a client ran longer than 60 s");
    }
    return new Run(process.exitValue(), new String(out, StandardCharsets.UTF_8));
  }
}
