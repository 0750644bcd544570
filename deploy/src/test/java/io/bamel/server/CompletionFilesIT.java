package io.bamel.server;

import static io.bamel.server.client.BashCompletion.complete;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The completion files the build writes into the distribution ({@link CompletionFiles}): bash's
 * file, sourced by bash with {@code COMP_WORDS} set, completes the real subcommands and their fixed
 * values; zsh's file is a completion function for {@code bamel} around the same script.
 */
class CompletionFilesIT {

  private static Path home() {
    return BamelProcess.launcher().getParent().getParent();
  }

  @Test
  void bashFileCompletesTheSubcommands() throws Exception {
    Path bash = home().resolve(CompletionFiles.BASH);
    assertThat(bash).isRegularFile();

    assertThat(complete(bash, "bamel ").split(" "))
        .contains("get", "describe", "power", "cordon", "watch", "bmc", "server", "completion");
    assertThat(complete(bash, "bamel get ").split(" ")).contains("nodes", "pools");
    assertThat(complete(bash, "bamel power o")).isEqualTo("on off");
    assertThat(complete(bash, "bamel bmc --int")).isEqualTo("--interface");
  }

  @Test
  void zshFileIsACompletionFunctionAroundTheSameScript() throws Exception {
    String zsh = Files.readString(home().resolve(CompletionFiles.ZSH));
    String bash = Files.readString(home().resolve(CompletionFiles.BASH));

    assertThat(zsh).startsWith("#compdef bamel\n").contains(bash);
    assertThat(zsh.strip()).endsWith("_bash_complete -F _complete_bamel -o default \"$@\"");
  }
}
