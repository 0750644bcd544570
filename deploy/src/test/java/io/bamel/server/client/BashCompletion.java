package io.bamel.server.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a bash completion script as bash does on a Tab: what it offers for a command line. */
public final class BashCompletion {

  private BashCompletion() {}

  /**
   * Sources {@code script} in bash, sets {@code COMP_WORDS}, {@code COMP_CWORD}, {@code COMP_LINE}
   * and {@code COMP_POINT} for {@code line} (a trailing space: completing a new word), calls {@code
   * _complete_bamel} and returns {@code COMPREPLY}, space-separated.
   */
  public static String complete(Path script, String line) throws Exception {
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
}
