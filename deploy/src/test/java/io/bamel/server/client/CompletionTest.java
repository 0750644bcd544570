package io.bamel.server.client;

import static io.bamel.server.client.BashCompletion.complete;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The script {@code bamel completion bash} prints, run by bash: what it completes. */
class CompletionTest {

  @TempDir Path dir;

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
