package io.bamel.power.ipmi.rmcp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The IPMI clients bamel did not write, run against a simulator: ipmitool ({@code -I lanplus},
 * password through {@code IPMI_PASSWORD} and {@code -E}) and freeipmi's ipmipower and ipmi-chassis
 * (user and password in a mode-600 configuration file, {@code --config-file}). No password on a
 * command line.
 */
public final class Oracles {

  private Oracles() {}

  static String ipmitool(int port, String user, String password, int suite, String... command)
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
                "-N",
                "1",
                "-R",
                "2"));
    argv.addAll(List.of(command));
    ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
    builder.environment().put("IPMI_PASSWORD", password);
    return Lanserv.text(builder.start());
  }

  /**
   * A freeipmi configuration file {@code name} in {@code dir} holding the user and password,
   * readable by this user only. freeipmi reads {@code username} and {@code password} from it for
   * every tool.
   */
  public static Path freeipmiConfig(Path dir, String name, String user, String password)
      throws IOException {
    Path file = dir.resolve(name);
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, "username " + user + "\npassword " + password + "\n");
    return file;
  }

  /**
   * A freeipmi tool against {@code hosts} (each {@code 127.0.0.1:port}), LAN 2.0. ipmi_sim's Open
   * Session Response carries a maximum privilege level freeipmi rejects ("privilege level cannot be
   * obtained for this user"), so its documented workaround {@code opensesspriv} is on.
   */
  static String freeipmi(Path config, String tool, String hosts, String... command)
      throws IOException, InterruptedException {
    List<String> argv =
        new ArrayList<>(
            List.of(
                tool,
                "--config-file=" + config,
                "-h",
                hosts,
                "-D",
                "LAN_2_0",
                "-I",
                "3",
                "-l",
                "ADMIN",
                "-W",
                "opensesspriv"));
    argv.addAll(List.of(command));
    return Lanserv.text(new ProcessBuilder(argv).redirectErrorStream(true).start());
  }
}
