package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.api.security.TokenStore;
import io.bamel.inventory.testing.EtcdCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/bamel server} about its secrets, as an operator meets it: a malformed or missing
 * tokens file is one line naming the file (and the line) and exit code 2, never a stack trace; a
 * tokens file others can read, and an external etcd without TLS or authentication, are warnings at
 * start that say what to set.
 */
class ServerSecurityIT {

  private static List<String> nonEmpty(List<String> lines) {
    return lines.stream().filter(l -> !l.isBlank()).toList();
  }

  @Test
  void aMalformedTokensFileIsOneLineNamingFileAndLineAndExitCode2(@TempDir Path dir)
      throws Exception {
    String secretLooking = "sha256:" + "ab".repeat(31);
    Path tokens =
        Files.writeString(
            dir.resolve("tokens"),
            "# name scope hash\n"
                + TokenStore.line("ops", "admin", TokenStore.newToken())
                + "\nnetbox write "
                + secretLooking
                + "\n");
    try (BamelProcess bamel =
        BamelProcess.start(
            Map.of(),
            "server",
            "--tokens-file",
            tokens.toString(),
            "--etcd-data-dir",
            dir.resolve("etcd").toString(),
            "--port",
            "0",
            "--kubernetes",
            "none")) {
      bamel.await(l -> l.contains("tokens file"), Duration.ofSeconds(60), "the error");
      assertThat(bamel.awaitExit(Duration.ofSeconds(30))).isEqualTo(2);
      assertThat(nonEmpty(bamel.lines()))
          .singleElement()
          .asString()
          .startsWith("bamel server: tokens file " + tokens + ":3: ")
          .contains("hash must be sha256: and 64 hex digits")
          .doesNotContain(secretLooking, "Exception", "java.");
    }
    // Nothing was started: no etcd data directory.
    assertThat(dir.resolve("etcd")).doesNotExist();
  }

  @Test
  void aMissingTokensFileIsOneLineAndExitCode2(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("no-such-tokens");
    try (BamelProcess bamel =
        BamelProcess.start(
            Map.of("BAMEL_AUTH_TOKENS_FILE", missing.toString()),
            "server",
            "--etcd-data-dir",
            dir.resolve("etcd").toString(),
            "--kubernetes",
            "none")) {
      bamel.await(l -> l.contains("tokens file"), Duration.ofSeconds(60), "the error");
      assertThat(bamel.awaitExit(Duration.ofSeconds(30))).isEqualTo(2);
      assertThat(nonEmpty(bamel.lines()))
          .containsExactly("bamel server: cannot read tokens file " + missing + ": no such file");
    }
  }

  @Test
  void aReadableTokensFileAndAPlainExternalEtcdAreWarnedAbout(@TempDir Path dir) throws Exception {
    Path tokens =
        Files.writeString(
            dir.resolve("tokens"), TokenStore.line("ops", "admin", TokenStore.newToken()) + "\n");
    Files.setPosixFilePermissions(tokens, PosixFilePermissions.fromString("rw-r--r--"));
    try (EtcdCluster etcd = EtcdCluster.start(1);
        BamelProcess bamel =
            BamelProcess.start(
                Map.of(),
                "server",
                "--etcd-endpoints",
                String.join(",", etcd.endpoints()),
                "--tokens-file",
                tokens.toString(),
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--kubernetes",
                "none")) {
      bamel.await(l -> l.contains("bamel server is running"), Duration.ofSeconds(90), "start-up");
      List<String> warnings = bamel.lines().stream().filter(l -> l.contains(" WARN ")).toList();
      assertThat(warnings)
          .anySatisfy(
              w ->
                  assertThat(w)
                      .contains("tokens file " + tokens + " is readable by its group or others")
                      .contains("chmod 600"))
          .anySatisfy(
              w ->
                  assertThat(w)
                      .contains("etcd.endpoints use plain http:// without etcd.user")
                      .contains("etcd.caFile"));
      assertThat(bamel.lines()).noneMatch(l -> l.contains("admin token file:"));
      assertThat(bamel.terminate(Duration.ofSeconds(60))).isZero();
    }
  }
}
