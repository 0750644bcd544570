package io.bamel.server.client.bmc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bamel.power.sim.Freeipmi;
import io.bamel.power.sim.IpmiSimulator;
import io.bamel.power.testing.CredentialDirs;
import io.bamel.power.testing.IpmiTools;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bamel bmc status --addresses}: many ipmi_sim BMCs read in one process, each line agreeing
 * with freeipmi's {@code ipmipower -h} on the same BMCs.
 */
class BmcFleetIT {

  private static final String PASSWORD = "fleet-S3cret-pw";

  @TempDir static Path dir;
  static List<IpmiSimulator> sims = new ArrayList<>();
  static Path creds;
  static String dead;

  @BeforeAll
  static void start() throws Exception {
    IpmiTools.require();
    for (int i = 0; i < 3; i++) {
      IpmiSimulator sim = IpmiSimulator.start(dir.resolve("sim" + i), "admin", PASSWORD);
      sim.setPoweredOn(i == 1);
      sims.add(sim);
    }
    creds = CredentialDirs.write(dir, "fleet", "admin", PASSWORD);
    try (DatagramSocket socket =
        new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      dead = "127.0.0.1:" + socket.getLocalPort();
    }
  }

  @AfterAll
  static void stop() {
    sims.forEach(IpmiSimulator::close);
  }

  /** ipmipower's answer per address, the password in a mode-600 config file. */
  static List<String> ipmipower(List<String> addresses) throws Exception {
    Path config = Freeipmi.config(dir, "freeipmi.conf", "admin", PASSWORD);
    String text =
        Freeipmi.lan20("ipmipower", config, String.join(",", addresses))
            .workaround("opensesspriv")
            .sessionTimeout(Duration.ofSeconds(20)) // an upper bound: a loaded ipmi_sim is slow
            .run("--stat")
            .output();
    List<String> states = new ArrayList<>();
    for (String line : text.split("\n")) {
      int colon = line.lastIndexOf(": ");
      if (colon > 0) {
        states.add(line.substring(colon + 2).trim());
      }
    }
    return states;
  }

  @Test
  void everyBmcIsReadAndAgreesWithIpmipower() throws Exception {
    List<String> addresses = new ArrayList<>(sims.stream().map(IpmiSimulator::address).toList());
    BmcRun run =
        BmcRun.inProcess(
            "status",
            "--interface",
            "ipmi",
            "--addresses",
            String.join(",", addresses),
            "--credentials",
            creds.toString());
    assertThat(run.exit()).as(run.out() + run.err()).isZero();
    // freeipmi names a host:port target by its host alone, so the answers are compared as a bag
    List<String> ipmipower = ipmipower(addresses);
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(3);
    for (int i = 0; i < addresses.size(); i++) {
      String expected = i == 1 ? "on" : "off";
      assertThat(lines.get(i)).isEqualTo(addresses.get(i) + ": " + expected);
    }
    assertThat(ipmipower).containsExactlyInAnyOrder("off", "on", "off");
  }

  @Test
  void aSilentBmcIsItsOwnErrorLineAsJsonAndTheOthersStillAnswer() throws Exception {
    Path file = dir.resolve("bmcs.txt");
    Files.writeString(
        file, "# rack 7\n" + sims.get(0).address() + "\n" + dead + "\n" + sims.get(1).address());
    BmcRun run =
        BmcRun.inProcess(
            "status",
            "--interface",
            "ipmi",
            "--addresses-file",
            file.toString(),
            "--credentials",
            creds.toString(),
            "--timeout",
            "20", // the live BMCs answer within it however loaded the machine; the dead one not
            "--output",
            "json");
    assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(BmcCommand.FAILED);
    assertThat(run.out()).as(run.err()).isNotEmpty();
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> objects = new ArrayList<>();
    for (String line : run.out().lines().toList()) {
      objects.add(json.readTree(line));
    }
    assertThat(objects).hasSize(3);
    assertThat(objects.get(0).path("powerState").asText()).isEqualTo("off");
    assertThat(objects.get(1).path("address").asText()).isEqualTo(dead);
    assertThat(objects.get(1).path("transient").asBoolean()).isTrue();
    assertThat(objects.get(1).path("error").asText()).contains("no answer");
    assertThat(objects.get(2).path("powerState").asText()).isEqualTo("on");
  }
}
