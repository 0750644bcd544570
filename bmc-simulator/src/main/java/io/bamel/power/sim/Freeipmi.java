package io.bamel.power.sim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a freeipmi tool ({@code ipmipower}, {@code ipmi-chassis}), real IPMI clients
 * bamel did not write, against BMCs on 127.0.0.1 over LAN 2.0 (RMCP+) at the ADMIN privilege level.
 * The user and password are in a configuration file readable by this user only ({@link #config},
 * passed with {@code --config-file}), never on the command line. Each caller sets what differs
 * (cipher suite, workaround, timeouts); unset, freeipmi's own defaults apply. Configured like a
 * {@link ProcessBuilder}, then run any number of times; not for use by several threads at once.
 */
public final class Freeipmi {

  private final String tool;
  private final Path config;
  private final String hosts;
  private int cipherSuite = 3;
  private final List<String> options = new ArrayList<>();

  private Freeipmi(String tool, Path config, String hosts) {
    this.tool = tool;
    this.config = config;
    this.hosts = hosts;
  }

  /**
   * A freeipmi configuration file {@code name} in {@code dir} holding {@code user} and {@code
   * password}, mode 600 (replaced when there). Every freeipmi tool reads {@code username} and
   * {@code password} from it.
   */
  public static Path config(Path dir, String name, String user, String password)
      throws IOException {
    Path file = dir.resolve(name);
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, "username " + user + "\npassword " + password + "\n");
    return file;
  }

  /**
   * {@code tool} (found on {@code PATH}) with the account in {@code config} against {@code hosts}
   * ({@code 127.0.0.1:port}, several separated by commas), cipher suite 3.
   */
  public static Freeipmi lan20(String tool, Path config, String hosts) {
    return new Freeipmi(tool, config, hosts);
  }

  /** {@code -I}: the RMCP+ cipher suite (3 unless set). */
  public Freeipmi cipherSuite(int suite) {
    this.cipherSuite = suite;
    return this;
  }

  /**
   * {@code -W}: a workaround for a BMC's known deviation. ipmi_sim's Open Session Response carries
   * a maximum privilege level freeipmi rejects ("privilege level cannot be obtained for this
   * user"), so against it {@code opensesspriv} is on.
   */
  public Freeipmi workaround(String workaround) {
    options.addAll(List.of("-W", workaround));
    return this;
  }

  /** {@code --session-timeout}: how long a whole session may take. */
  public Freeipmi sessionTimeout(Duration timeout) {
    options.add("--session-timeout=" + timeout.toMillis());
    return this;
  }

  /** {@code --retransmission-timeout}: how long to wait for an answer before sending again. */
  public Freeipmi retransmissionTimeout(Duration timeout) {
    options.add("--retransmission-timeout=" + timeout.toMillis());
    return this;
  }

  /** The command line for {@code command} (such as {@code --stat}). */
  public List<String> argv(String... command) {
    List<String> argv = new ArrayList<>();
    argv.addAll(
        List.of(
            tool,
            "--config-file=" + config,
            "-h",
            hosts,
            "-D",
            "LAN_2_0",
            "-I",
            String.valueOf(cipherSuite),
            "-l",
            "ADMIN"));
    argv.addAll(options);
    argv.addAll(List.of(command));
    return argv;
  }

  /** Runs {@code command} and waits for its end ({@link ClientRun#of}). */
  public ClientRun run(String... command) throws IOException, InterruptedException {
    return ClientRun.of(new ProcessBuilder(argv(command)));
  }
}
