package io.bamel.power.sim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What a real IPMI client (ipmitool, a freeipmi tool) did when run as its own process: its exit
 * code and its output (standard output and error together).
 *
 * @param exit the exit code
 * @param output standard output and error, as UTF-8
 */
public record ClientRun(int exit, String output) {

  /** How long a client may run before it is killed and the run fails. */
  public static final Duration LIMIT = Duration.ofSeconds(60);

  /**
   * Starts {@code process} (its error stream merged into its output), reads its output to the end
   * and waits for it to exit.
   *
   * @throws IOException when it cannot start or runs longer than {@link #LIMIT}
   */
  public static ClientRun of(ProcessBuilder process) throws IOException, InterruptedException {
    Process started = process.redirectErrorStream(true).start();
    byte[] out = started.getInputStream().readAllBytes();
    if (!started.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      started.destroyForcibly();
      throw new IOException(process.command().get(0) + " ran longer than " + LIMIT);
    }
    return new ClientRun(started.exitValue(), new String(out, StandardCharsets.UTF_8));
  }
}
