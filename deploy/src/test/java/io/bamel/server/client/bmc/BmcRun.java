package io.bamel.server.client.bmc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * What one {@code bamel bmc} run printed and returned, run in the test's JVM through picocli or as
 * its own process; and the command lines the tests give it, built by name.
 *
 * @param exit the exit code
 * @param out standard output
 * @param err standard error
 */
public record BmcRun(int exit, String out, String err) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long a {@code bamel bmc} process may take. */
  private static final long LIMIT_SECONDS = 90;

  /** Standard output read as one JSON document. */
  public JsonNode json() throws IOException {
    return JSON.readTree(out);
  }

  /** {@code bamel bmc args} in this JVM through picocli, both streams captured and trimmed. */
  public static BmcRun inProcess(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new BmcCommand());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    int exit = command.execute(args);
    return new BmcRun(exit, out.toString().trim(), err.toString().trim());
  }

  /**
   * Runs {@code process} (a {@code bamel bmc} command line) to its end, its standard error through
   * the file {@code err} (so that neither stream can fill and stall it), both trimmed.
   *
   * @throws IllegalStateException when it runs longer than 90 s
   */
  public static BmcRun ofProcess(ProcessBuilder process, Path err)
      throws IOException, InterruptedException {
    Process started = process.redirectError(err.toFile()).start();
    String out = new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!started.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
      started.destroyForcibly();
      throw new IllegalStateException("bamel bmc ran longer than " + LIMIT_SECONDS + " s");
    }
    return new BmcRun(started.exitValue(), out.trim(), Files.readString(err).trim());
  }

  /**
   * The flags naming a Redfish BMC: its {@code address}, the {@code credentials} directory and,
   * when not null, the {@code ca} bundle its certificate is checked against.
   */
  public static List<String> redfish(String address, Path credentials, Path ca) {
    List<String> flags =
        new ArrayList<>(
            List.of(
                "--interface",
                "redfish",
                "--address",
                address,
                "--credentials",
                credentials.toString()));
    if (ca != null) {
      flags.addAll(List.of("--ca-file", ca.toString()));
    }
    return flags;
  }

  /** {@code action}, then {@code target}'s flags, then {@code more}: one command line. */
  public static String[] args(String action, List<String> target, String... more) {
    List<String> all = new ArrayList<>();
    all.add(action);
    all.addAll(target);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }
}
