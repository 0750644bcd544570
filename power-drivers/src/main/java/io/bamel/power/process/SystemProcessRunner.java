package io.bamel.power.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Runs commands as operating-system processes; kills them at their timeout. */
public final class SystemProcessRunner implements ProcessRunner {

  @Override
  public ProcessResult run(List<String> argv, Map<String, String> environment, Duration timeout)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().putAll(environment);
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    boolean finished;
    try {
      finished = process.waitFor(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      kill(process);
      throw e;
    }
    if (!finished) {
      kill(process);
    }
    return new ProcessResult(finished ? process.exitValue() : -1, join(out), join(err), !finished);
  }

  private static void kill(Process process) throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(2, TimeUnit.SECONDS);
  }

  private static CompletableFuture<String> drain(InputStream stream) {
    CompletableFuture<String> result = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try (stream) {
                result.complete(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                result.complete("");
              }
            });
    return result;
  }

  private static String join(CompletableFuture<String> future) throws InterruptedException {
    try {
      return future.get(2, TimeUnit.SECONDS);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      return "";
    }
  }
}
