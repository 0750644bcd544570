package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's class path ({@code src/main/dist/bin/bamel}), with a stand-in {@code java} that
 * prints its arguments: the commands that talk to a server or a BMC get the client jars alone, the
 * other client commands the client jars first and the rest after them (so the archive made on the
 * client jars applies), and the server every jar in byte order.
 */
class LauncherClassPathTest {

  private static final List<String> CLIENT =
      List.of(
          "deploy-0.1.0.jar",
          "inventory-core-0.1.0.jar",
          "jackson-databind-2.20.1.jar",
          "jackson-dataformat-yaml-2.20.1.jar",
          "logback-classic-1.5.18.jar",
          "okhttp-4.12.0.jar",
          "outbound-http-0.1.0.jar",
          "picocli-4.7.7.jar",
          "power-drivers-0.1.0.jar",
          "prometheus-metrics-core-1.4.2.jar",
          "prometheus-metrics-tracer-initializer-1.4.2.jar",
          "snakeyaml-2.4.jar");
  private static final List<String> SERVER =
      List.of(
          "grpc-core-1.76.0.jar",
          "inventory-api-0.1.0.jar",
          "javalin-6.7.0.jar",
          "jetty-server-11.0.25.jar",
          "kubernetes-client-7.4.0.jar",
          "netty-common-4.2.7.Final.jar",
          "prometheus-metrics-exposition-formats-1.4.2.jar",
          "snakeyaml-engine-2.10.jar");

  @TempDir Path dir;
  private Path launcher;
  private Path jdk;

  @BeforeEach
  void distribution() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bamel/bin"));
    launcher = bin.resolve("bamel");
    Files.copy(Path.of("src/main/dist/bin/bamel"), launcher);
    executable(launcher);
    Path lib = Files.createDirectories(dir.resolve("bamel/lib"));
    for (String jar : CLIENT) {
      Files.createFile(lib.resolve(jar));
    }
    for (String jar : SERVER) {
      Files.createFile(lib.resolve(jar));
    }
    jdk = Files.createDirectories(dir.resolve("jdk/bin")).getParent();
    Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.1\"\nIMPLEMENTOR=\"Test\"\n");
    Path java = jdk.resolve("bin/java");
    Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
    executable(java);
  }

  @Test
  void commandsThatTalkToAServerOrABmcRunOnTheClientJarsAlone() throws Exception {
    for (String command : List.of("get", "describe", "power", "maintenance", "watch", "bmc")) {
      assertThat(classPath(command, "--server", "http://127.0.0.1:9"))
          .as(command)
          .containsExactlyElementsOf(sorted(CLIENT));
    }
    assertThat(classPath("cordon", "r1")).containsExactlyElementsOf(sorted(CLIENT));
  }

  @Test
  void otherClientCommandsPutTheClientJarsFirst() throws Exception {
    List<String> expected = new ArrayList<>(sorted(CLIENT));
    expected.addAll(sorted(SERVER));
    for (String command : List.of("help", "completion", "token", "--version")) {
      assertThat(classPath(command)).as(command).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void theServerKeepsEveryJarInByteOrder() throws Exception {
    List<String> all = new ArrayList<>(CLIENT);
    all.addAll(SERVER);
    for (String command : List.of("server", "demo", "etcd", "sync")) {
      assertThat(classPath(command)).as(command).containsExactlyElementsOf(sorted(all));
    }
  }

  /** The jar names of the {@code -cp} the launcher passed to java for {@code args}. */
  private List<String> classPath(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
    cmd.addAll(Arrays.asList(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", jdk.toString());
    pb.environment().remove("JAVA_OPTS");
    Process process = pb.start();
    List<String> argv =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            .lines()
            .toList();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(String.join("\n", argv)).isZero();
    int cp = argv.indexOf("-cp");
    assertThat(cp).as(String.join("\n", argv)).isNotNegative();
    assertThat(argv.get(cp + 2)).isEqualTo("io.bamel.server.Main");
    return Arrays.stream(argv.get(cp + 1).split(":"))
        .map(p -> p.substring(p.lastIndexOf('/') + 1))
        .toList();
  }

  private static List<String> sorted(List<String> names) {
    return names.stream().sorted().toList();
  }

  private static void executable(Path file) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
