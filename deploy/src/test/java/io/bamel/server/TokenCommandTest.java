package io.bamel.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bamel.inventory.api.security.TokenStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class TokenCommandTest {

  private record Run(int exit, String out, String err) {}

  private static Run token(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        new CommandLine(
                new TokenCommand(
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)))
            .execute(args);
    return new Run(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void printsTheTokenAndItsLineForEveryScopeIncludingBmc() {
    for (String scope : List.of("read", "write", "bmc", "admin")) {
      Run run = token("--name", "netbox-sync.ams1_a", "--scope", scope);
      assertThat(run.exit()).as(run.err()).isZero();
      List<String> lines = run.out().lines().toList();
      assertThat(lines).hasSize(2);
      String token = lines.get(0).substring("token: ".length());
      assertThat(token).startsWith("bml_");
      assertThat(lines.get(1))
          .isEqualTo("tokens-file line: " + TokenStore.line("netbox-sync.ams1_a", scope, token));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        " ",
        "net box",
        "netbox\nadmin admin sha256:00",
        "NetBox",
        "-netbox",
        ".netbox",
        "n\u00e9tbox",
        "netbox@site",
        "a123456789012345678901234567890123456789012345678901234567890123"
      })
  void aBadNameIsOneLineAndExitCode2WithNothingPrinted(String name) {
    Run run = token("--name", name, "--scope", "write");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines().toList())
        .singleElement()
        .asString()
        .startsWith("bamel token: --name must be");
  }

  @Test
  void theLongestNameIs63Characters() {
    String name = "a" + "b".repeat(62);
    assertThat(token("--name", name, "--scope", "read").exit()).isZero();
  }

  @Test
  void anUnknownScopeIsOneLineAndExitCode2() {
    Run run = token("--name", "ops", "--scope", "root");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err().strip())
        .isEqualTo("bamel token: --scope must be read, write, bmc or admin");
  }
}
