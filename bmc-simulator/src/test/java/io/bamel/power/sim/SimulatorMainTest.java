package io.bamel.power.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Where the simulator's accepted password comes from: never the command line. */
class SimulatorMainTest {

  @TempDir Path dir;

  @Test
  void aPasswordFileWinsAndLosesOneTrailingNewline() throws Exception {
    Path file = Files.writeString(dir.resolve("pw"), "from-file-pw\n");
    assertThat(SimulatorMain.password(file, Map.of(SimulatorMain.PASSWORD_VARIABLE, "from-env-pw")))
        .isEqualTo("from-file-pw");
    Files.writeString(file, "crlf-pw\r\n");
    assertThat(SimulatorMain.password(file, Map.of())).isEqualTo("crlf-pw");
  }

  @Test
  void theEnvironmentVariableComesNextThenTheDefault() throws Exception {
    assertThat(SimulatorMain.password(null, Map.of(SimulatorMain.PASSWORD_VARIABLE, "env-pw")))
        .isEqualTo("env-pw");
    assertThat(SimulatorMain.password(null, Map.of(SimulatorMain.PASSWORD_VARIABLE, "")))
        .isEqualTo(SimulatorMain.DEFAULT_PASSWORD);
    assertThat(SimulatorMain.password(null, Map.of())).isEqualTo("password");
  }

  @Test
  void anEmptyOrMissingFileIsAnError() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    assertThatThrownBy(() -> SimulatorMain.password(empty, Map.of()))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> SimulatorMain.password(dir.resolve("none"), Map.of()))
        .isInstanceOf(IOException.class);
  }

  @Test
  void aPasswordOnTheCommandLineIsAUsageError() {
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new SimulatorMain()).setErr(new PrintWriter(err));

    int exit = command.execute("--systems", "1", "--password", "argv-pw");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .contains("--password is not accepted")
        .contains("--password-file")
        .contains(SimulatorMain.PASSWORD_VARIABLE);
  }

  @Test
  void anUnknownProfileOrConnectionIsAUsageError() {
    for (String[] args :
        List.of(
            new String[] {"--profile", "ilo9", "--plain-http"},
            new String[] {"--connection", "sometimes", "--plain-http"})) {
      StringWriter err = new StringWriter();
      CommandLine command = new CommandLine(new SimulatorMain()).setErr(new PrintWriter(err));
      assertThat(command.execute(args)).isEqualTo(2);
      assertThat(err.toString()).containsAnyOf("ilo9", "sometimes");
    }
  }
}
