package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/bamel get nodes} through the launcher: it runs on the start-up archive made at package
 * time (nearly every class from it, picocli's included), loads no server library (Jetty, Javalin,
 * jetcd, gRPC, Netty, fabric8), and a refused connection is one line on standard error, nothing on
 * standard output, exit code 1.
 */
class ClientLauncherIT {

  @TempDir Path dir;

  @Test
  void aClientCommandStartsFromTheArchiveWithoutServerLibraries() throws Exception {
    Path launcher = BamelProcess.launcher();
    assertThat(launcher.getParent().getParent().resolve("lib/bamel-cli.jdk")).isRegularFile();
    Path classes = dir.resolve("classes.txt");
    ProcessBuilder pb =
        new ProcessBuilder(
                List.of(launcher.toString(), "get", "nodes", "--server", "http://127.0.0.1:9"))
            .redirectError(dir.resolve("err").toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("JAVA_OPTS", "-Xlog:class+load:file=" + classes);
    pb.environment().put("BAMEL_CONFIG", dir.resolve("none.yaml").toString());
    pb.environment().remove("BAMEL_SERVER");
    Process process = pb.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).isEqualTo(1);
    assertThat(out).isEmpty();
    assertThat(Files.readString(dir.resolve("err")))
        .isEqualTo(
            "error: cannot connect to the bamel server at http://127.0.0.1:9: connection refused"
                + " (is it running? set --server, BAMEL_SERVER or server: in"
                + " ~/.config/bamel/config.yaml)\n");
    List<String> loaded = Files.readAllLines(classes);
    assertThat(loaded)
        .noneMatch(
            l ->
                l.contains(" org.eclipse.jetty.")
                    || l.contains(" io.javalin.")
                    || l.contains(" io.etcd.")
                    || l.contains(" io.grpc.")
                    || l.contains(" io.netty.")
                    || l.contains(" io.fabric8."));
    long shared = loaded.stream().filter(l -> l.contains("source: shared objects file")).count();
    assertThat(loaded.size() - shared).as("classes not from the archive").isLessThan(100);
    // Picocli's Java 5 class files, rewritten at package time by a JDK 24+ build, come from the
    // archive too: none is read from its jar.
    if (Runtime.version().feature() >= 24) {
      assertThat(loaded)
          .noneMatch(l -> l.contains(" picocli.") && !l.contains("source: shared objects file"));
    }
  }
}
