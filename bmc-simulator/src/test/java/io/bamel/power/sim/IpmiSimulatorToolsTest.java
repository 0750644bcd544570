package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ipmi_sim and ipmitool are looked up on the search path, and a missing one names its package. */
class IpmiSimulatorToolsTest {

  @TempDir Path dir;

  private Path executable(Path directory, String name) throws Exception {
    Files.createDirectories(directory);
    Path file = directory.resolve(name);
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  @Test
  void bothMissingAreNamedWithTheirDebianPackages() {
    assertThat(IpmiSimulator.missingTools(dir.toString()))
        .containsExactly(
            "ipmi_sim (Debian package openipmi)", "ipmitool (Debian package ipmitool)");
    assertThat(IpmiSimulator.missingTools(null)).hasSize(2);
  }

  @Test
  void toolsAreFoundInAnyDirectoryOfThePath() throws Exception {
    executable(dir.resolve("a"), "ipmitool");
    executable(dir.resolve("b"), "ipmi_sim");
    String path = String.join(File.pathSeparator, "", dir.resolve("a").toString(), dir + "/b");

    assertThat(IpmiSimulator.missingTools(path)).isEmpty();
    assertThat(ExecutableSearch.find("ipmi_sim", path)).contains(dir.resolve("b/ipmi_sim"));
  }

  @Test
  void theFirstMatchWinsAndANonExecutableFileDoesNotCount() throws Exception {
    Path first = executable(dir.resolve("first"), "ipmitool");
    executable(dir.resolve("second"), "ipmitool");
    Files.createDirectories(dir.resolve("plain"));
    Files.writeString(dir.resolve("plain/ipmi_sim"), "not executable");
    String path =
        String.join(
            File.pathSeparator,
            dir.resolve("plain").toString(),
            dir.resolve("first").toString(),
            dir.resolve("second").toString());

    assertThat(ExecutableSearch.find("ipmitool", path)).contains(first);
    assertThat(IpmiSimulator.missingTools(path))
        .containsExactly("ipmi_sim (Debian package openipmi)");
  }
}
