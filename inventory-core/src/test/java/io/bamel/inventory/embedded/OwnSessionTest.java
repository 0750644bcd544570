package io.bamel.inventory.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnSessionTest {

  @Test
  void prefixesTheFirstExecutableSetsidOnThePath(@TempDir Path dir) throws Exception {
    Path notExecutable = Files.createDirectories(dir.resolve("a"));
    Files.writeString(notExecutable.resolve("setsid"), "#!/bin/sh\n");
    Path bin = Files.createDirectories(dir.resolve("b"));
    Path setsid = Files.writeString(bin.resolve("setsid"), "#!/bin/sh\n");
    assertThat(setsid.toFile().setExecutable(true)).isTrue();
    assertThat(OwnSession.prefix(Map.of("PATH", notExecutable + "::" + bin)))
        .containsExactly(setsid.toString());
  }

  @Test
  void withoutSetsidTheChildStartsAsBefore(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("setsid"));
    assertThat(OwnSession.prefix(Map.of("PATH", dir.toString()))).isEmpty();
    assertThat(OwnSession.prefix(Map.of())).isEmpty();
  }

  /** The real setsid keeps the child's process id (no fork) and gives it a group of its own. */
  @Test
  void theChildLeadsItsOwnProcessGroupUnderTheSamePid() throws Exception {
    List<String> prefix = OwnSession.prefix(System.getenv());
    assumeFalse(prefix.isEmpty(), "no setsid on the PATH");
    List<String> cmd = new ArrayList<>(prefix);
    // Fields 5 and 6 of /proc/PID/stat: the process group and the session.
    cmd.addAll(
        List.of(
            "sh",
            "-c",
            "read pid comm state ppid pgrp sid rest < /proc/$$/stat; echo $pid $pgrp $sid"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String[] out = new String(p.getInputStream().readAllBytes()).trim().split("\\s+");
    assertThat(p.waitFor()).isZero();
    assertThat(out).hasSize(3);
    assertThat(Long.parseLong(out[0])).as("the pid the owner holds").isEqualTo(p.pid());
    assertThat(out[1]).as("process group").isEqualTo(out[0]);
    assertThat(out[2]).as("session").isEqualTo(out[0]);
    assertThat(Long.parseLong(out[1])).isNotEqualTo(ProcessHandle.current().pid());
  }
}
