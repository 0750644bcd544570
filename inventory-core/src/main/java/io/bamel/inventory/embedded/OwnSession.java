package io.bamel.inventory.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How a child process is started in a session (and process group) of its own, so that the signals a
 * terminal sends to its foreground process group (Ctrl-C's SIGINT, Ctrl-\'s SIGQUIT) reach only its
 * owner, which then stops the child itself, in its own order. The child's argv is prefixed with
 * util-linux's {@code setsid}, found on the PATH; {@code setsid} does not fork when its caller is
 * not a process-group leader (a JVM's child never is), so the child keeps the process id the owner
 * holds. Without {@code setsid} the prefix is empty and the child shares the owner's process group,
 * as before.
 */
public final class OwnSession {

  private OwnSession() {}

  /**
   * {@code [/path/to/setsid]} from the PATH of {@code env}, or an empty list when there is none.
   */
  public static List<String> prefix(Map<String, String> env) {
    for (String dir : env.getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty()) {
        Path setsid = Path.of(dir, "setsid");
        if (Files.isExecutable(setsid) && !Files.isDirectory(setsid)) {
          return List.of(setsid.toString());
        }
      }
    }
    return List.of();
  }
}
