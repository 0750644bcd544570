package io.bamel.power.sim;

import io.bamel.power.ipmi.IpmiDriver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of ipmitool, the real IPMI client bamel's IPMI code is checked against, for one
 * BMC on 127.0.0.1 over {@code -I lanplus} (IPMI 2.0, RMCP+). The password goes to the child's
 * environment ({@code IPMI_PASSWORD}, read with {@code -E}), never on the command line. Each caller
 * sets what differs (cipher suite, privilege level, timeout, retries); unset, ipmitool's own
 * defaults apply. Configured like a {@link ProcessBuilder}, then run any number of times; not for
 * use by several threads at once.
 */
public final class Ipmitool {

  private final int port;
  private final String user;
  private final String password;
  private String program = "ipmitool";
  private int cipherSuite = 3;
  private String privilege;
  private Integer timeoutSeconds;
  private Integer retries;

  private Ipmitool(int port, String user, String password) {
    this.port = port;
    this.user = user;
    this.password = password;
  }

  /** ipmitool on {@code PATH}, {@code -I lanplus} to 127.0.0.1:{@code port}, cipher suite 3. */
  public static Ipmitool lanplus(int port, String user, String password) {
    return new Ipmitool(port, user, password);
  }

  /** The ipmitool to run (a path, or a name looked up on {@code PATH}). */
  public Ipmitool program(String program) {
    this.program = program;
    return this;
  }

  /** {@code -C}: the RMCP+ cipher suite (3 unless set). */
  public Ipmitool cipherSuite(int suite) {
    this.cipherSuite = suite;
    return this;
  }

  /** {@code -L}: the session's privilege level, such as {@code ADMINISTRATOR} or {@code USER}. */
  public Ipmitool privilege(String level) {
    this.privilege = level;
    return this;
  }

  /** {@code -N}: seconds to wait for an answer before sending again. */
  public Ipmitool timeoutSeconds(int seconds) {
    this.timeoutSeconds = seconds;
    return this;
  }

  /** {@code -R}: how many times a request is sent before ipmitool gives up. */
  public Ipmitool retries(int retries) {
    this.retries = retries;
    return this;
  }

  /** The command line for {@code command} (such as {@code chassis power status}). */
  public List<String> argv(String... command) {
    List<String> argv = new ArrayList<>();
    argv.addAll(
        List.of(
            program,
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
            String.valueOf(cipherSuite)));
    if (privilege != null) {
      argv.addAll(List.of("-L", privilege));
    }
    if (timeoutSeconds != null) {
      argv.addAll(List.of("-N", String.valueOf(timeoutSeconds)));
    }
    if (retries != null) {
      argv.addAll(List.of("-R", String.valueOf(retries)));
    }
    argv.addAll(List.of(command));
    return argv;
  }

  /** A process for {@code command}, the password in its environment only. */
  public ProcessBuilder process(String... command) {
    ProcessBuilder builder = new ProcessBuilder(argv(command));
    builder.environment().put(IpmiDriver.PASSWORD_VARIABLE, password);
    return builder;
  }

  /** Runs {@code command} and waits for its end ({@link ClientRun#of}). */
  public ClientRun run(String... command) throws IOException, InterruptedException {
    return ClientRun.of(process(command));
  }
}
