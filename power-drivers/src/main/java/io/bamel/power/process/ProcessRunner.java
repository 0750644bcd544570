package io.bamel.power.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Runs a command. Secrets go in {@code environment}, never in {@code argv}. A process still running
 * at {@code timeout} is killed (with its descendants) and reported as timed out.
 */
@FunctionalInterface
public interface ProcessRunner {

  /** Runs {@code argv} with {@code environment} added to this process's environment. */
  ProcessResult run(List<String> argv, Map<String, String> environment, Duration timeout)
      throws IOException, InterruptedException;
}
