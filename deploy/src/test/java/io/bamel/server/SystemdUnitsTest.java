package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd units of {@code deploy/systemd}: the Wake-on-LAN relay relays only packets from the
 * hosts it is given, loopback by default (finding 7 of issue 30: it used to relay anyone's), and
 * every unit passes {@code systemd-analyze verify} where systemd is installed.
 */
class SystemdUnitsTest {

  private static final Path RELAY = Path.of("systemd/bamel-wol-relay.service");

  /** Every value of each directive, in order. */
  private static Map<String, List<String>> directives(Path unit) throws IOException {
    Map<String, List<String>> d = new TreeMap<>();
    for (String line : Files.readAllLines(unit)) {
      if (!line.startsWith("#") && !line.startsWith("[") && line.contains("=")) {
        d.computeIfAbsent(line.substring(0, line.indexOf('=')), k -> new ArrayList<>())
            .add(line.substring(line.indexOf('=') + 1));
      }
    }
    return d;
  }

  @Test
  void attack_wolRelayOpenToAnySender() throws Exception {
    Map<String, List<String>> unit = directives(RELAY);
    // socat relays only the senders of one range; the kernel drops every other address.
    assertThat(unit.get("ExecStart"))
        .singleElement()
        .asString()
        .contains("UDP4-RECVFROM:4009,fork,range=${WOL_RELAY_RANGE} ");
    assertThat(unit.get("IPAddressDeny")).containsExactly("any");
    assertThat(unit.get("IPAddressAllow")).isNotEmpty().contains("localhost");
    // Configurable through an environment file; closed (loopback) without one.
    assertThat(unit.get("EnvironmentFile")).containsExactly("-/etc/bamel/wol-relay.env");
    assertThat(unit.get("Environment")).contains("WOL_RELAY_RANGE=127.0.0.0/8");
    assertThat(Files.readAllLines(Path.of("systemd/wol-relay.env")))
        .contains("WOL_RELAY_RANGE=127.0.0.0/8", "WOL_RELAY_BROADCAST=192.0.2.255");
  }

  /**
   * {@code systemd-analyze verify} on each unit, with its program replaced by an empty executable
   * (verify checks that the program exists, and neither socat nor an installed bamel is here): any
   * warning, an unknown or misspelt directive included, fails.
   */
  @Test
  void everyUnitPassesSystemdAnalyzeVerify(@TempDir Path dir) throws Exception {
    Path analyze = Path.of("/usr/bin/systemd-analyze");
    assumeTrue(Files.isExecutable(analyze), "systemd-analyze is not installed: units not verified");
    List<Path> units;
    try (Stream<Path> files = Files.list(Path.of("systemd"))) {
      units = files.filter(p -> p.toString().endsWith(".service")).sorted().toList();
    }
    assertThat(units).contains(RELAY);
    for (Path unit : units) {
      String text = Files.readString(unit);
      String program = directives(unit).get("ExecStart").get(0).split(" ")[0];
      Path stub = dir.resolve(unit.getFileName() + ".program");
      Files.writeString(stub, "#!/bin/sh\n");
      Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path copy = dir.resolve(unit.getFileName());
      Files.writeString(copy, text.replace(program, stub.toString()));
      Process p =
          new ProcessBuilder(analyze.toString(), "verify", "--man=no", copy.toString())
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .start();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(unit + ": " + out).isZero();
      assertThat(out).as(unit.toString()).doesNotContain(unit.getFileName().toString());
    }
  }
}
