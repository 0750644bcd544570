package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real clients' command lines: each caller's settings in ipmitool's and freeipmi's own flags,
 * and the password never among them (the environment for ipmitool, a mode-600 file for freeipmi).
 */
class IpmiClientArgvTest {

  private static final String PASSWORD = "argv-S3cret";

  @TempDir Path dir;

  @Test
  void ipmitoolTakesThePasswordFromItsEnvironmentAndOnlyTheFlagsSet() {
    Ipmitool bare = Ipmitool.lanplus(6230, "admin", PASSWORD);
    assertThat(bare.argv("chassis", "power", "status"))
        .containsExactly(
            "ipmitool",
            "-I",
            "lanplus",
            "-H",
            "127.0.0.1",
            "-p",
            "6230",
            "-U",
            "admin",
            "-E",
            "-C",
            "3",
            "chassis",
            "power",
            "status");

    Ipmitool tuned =
        Ipmitool.lanplus(6230, "viewer", PASSWORD)
            .program("/usr/bin/ipmitool")
            .cipherSuite(17)
            .privilege("USER")
            .timeoutSeconds(1)
            .retries(2);
    ProcessBuilder process = tuned.process("mc", "guid");
    assertThat(process.command())
        .containsExactly(
            "/usr/bin/ipmitool",
            "-I",
            "lanplus",
            "-H",
            "127.0.0.1",
            "-p",
            "6230",
            "-U",
            "viewer",
            "-E",
            "-C",
            "17",
            "-L",
            "USER",
            "-N",
            "1",
            "-R",
            "2",
            "mc",
            "guid")
        .noneMatch(arg -> arg.contains(PASSWORD));
    assertThat(process.environment()).containsEntry("IPMI_PASSWORD", PASSWORD);
  }

  @Test
  void freeipmiReadsTheAccountFromAFileOnlyItsOwnerCanRead() throws Exception {
    Path config = Freeipmi.config(dir, "admin.conf", "admin", PASSWORD);
    assertThat(Files.readString(config)).isEqualTo("username admin\npassword " + PASSWORD + "\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config)))
        .isEqualTo("rw-------");

    assertThat(
            Freeipmi.lan20("ipmipower", config, "127.0.0.1:1,127.0.0.1:2")
                .cipherSuite(17)
                .workaround("opensesspriv")
                .sessionTimeout(Duration.ofSeconds(3))
                .retransmissionTimeout(Duration.ofSeconds(1))
                .argv("--stat"))
        .containsExactly(
            "ipmipower",
            "--config-file=" + config,
            "-h",
            "127.0.0.1:1,127.0.0.1:2",
            "-D",
            "LAN_2_0",
            "-I",
            "17",
            "-l",
            "ADMIN",
            "-W",
            "opensesspriv",
            "--session-timeout=3000",
            "--retransmission-timeout=1000",
            "--stat")
        .noneMatch(arg -> arg.contains(PASSWORD));
  }
}
