package io.bamel.server;

import io.bamel.server.client.ClientEnvironment;
import io.bamel.server.client.CompletionCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Writes the shell completion files of the distribution, run by deploy's build at package time with
 * the distribution's directory as its one argument: {@code share/bash-completion/completions/bamel}
 * (bash-completion loads it at the first completion of {@code bamel}) and {@code
 * share/zsh/site-functions/_bamel} (a zsh completion function), both from the command tree {@code
 * bamel completion} prints. Exit code 0, or 2 without the argument.
 */
public final class CompletionFiles {

  /** Bash's file, relative to the distribution. */
  public static final String BASH = "share/bash-completion/completions/bamel";

  /** Zsh's file, relative to the distribution. */
  public static final String ZSH = "share/zsh/site-functions/_bamel";

  private CompletionFiles() {}

  /** Writes both files under {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: CompletionFiles DISTRIBUTION_DIRECTORY");
      System.exit(2);
    }
    write(Path.of(args[0]));
  }

  /** Writes both files under {@code distribution}, replacing older ones. */
  static void write(Path distribution) throws IOException {
    CommandLine root = Main.commandLine(ClientEnvironment.system());
    write(distribution.resolve(BASH), CompletionCommand.script(root));
    write(distribution.resolve(ZSH), CompletionCommand.zshFunction(root));
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
