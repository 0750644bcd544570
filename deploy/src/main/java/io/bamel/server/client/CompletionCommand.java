package io.bamel.server.client;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bamel completion bash|zsh}: prints the completion script picocli's {@link AutoComplete}
 * generates from the command tree. The script is bash; zsh runs it through {@code bashcompinit},
 * which the script itself loads when it runs in zsh.
 */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the shell completion script.",
      "  bash: source <(bamel completion bash)",
      "  zsh:  source <(bamel completion zsh)"
    })
public final class CompletionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "SHELL",
      completionCandidates = Shells.class,
      description = "bash or zsh")
  String shell;

  /** The shells, for completion. */
  static final class Shells extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Shells() {
      super(java.util.List.of("bash", "zsh"));
    }
  }

  /** The script for {@code root}'s command tree. */
  public static String script(CommandLine root) {
    return AutoComplete.bash(root.getCommandName(), root);
  }

  /**
   * The same script as a zsh completion function file ({@code _bamel} in a directory of {@code
   * $fpath}, such as {@code /usr/share/zsh/site-functions}): {@code compinit} autoloads it at the
   * first completion of {@code bamel}; the script registers its bash function through {@code
   * bashcompinit}, and the last line hands that first completion to it.
   */
  public static String zshFunction(CommandLine root) {
    String name = root.getCommandName();
    return "#compdef "
        + name
        + "\n"
        + "# "
        + name
        + "'s zsh completion: picocli's completion script, run through zsh's bashcompinit.\n"
        + script(root)
        + "\n_bash_complete -F _complete_"
        + name
        + " -o default \"$@\"\n";
  }

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "SHELL must be bash or zsh, not " + shell);
    }
    spec.commandLine().getOut().print(script(spec.root().commandLine()));
    spec.commandLine().getOut().flush();
    return 0;
  }
}
