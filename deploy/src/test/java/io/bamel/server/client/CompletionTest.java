package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The script {@code bamel completion bash} prints, run by bash: what it completes. */
class CompletionTest {

  @TempDir Path dir;

  private String complete(Path script, String line) throws Exception {
    String words = line.endsWith(" ") ? line + "''" : line;
    String bash =
        "source "
            + script
            + " 2>/dev/null; COMP_WORDS=("
            + words
            + "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE='"
            + line
            + "'; COMP_POINT=${#COMP_LINE}; _complete_bamel 2>/dev/null; echo \"${COMPREPLY[*]}\"";
    Process p = new ProcessBuilder(List.of("bash", "-c", bash)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void bashCompletesSubcommandsOptionsAndFixedValues() throws Exception {
    CommandLine root = io.bamel.server.MainAccess.commandLine();
    StringBuilder printed = new StringBuilder();
    java.io.StringWriter out = new java.io.StringWriter();
    root.setOut(new java.io.PrintWriter(out, true));
    assertThat(root.execute("completion", "bash")).isZero();
    printed.append(out);
    Path script = Files.writeString(dir.resolve("bamel.bash"), printed.toString());

    assertThat(complete(script, "bamel ge")).isEqualTo("get");
    assertThat(complete(script, "bamel get ")).isEqualTo("nodes node no pools pool");
    assertThat(complete(script, "bamel power o")).isEqualTo("on off");
    assertThat(complete(script, "bamel get nodes --se")).isEqualTo("--server --selector");
    assertThat(complete(script, "bamel describe ")).isEqualTo("node pool");
    assertThat(printed.toString()).contains("bashcompinit");
  }
}
